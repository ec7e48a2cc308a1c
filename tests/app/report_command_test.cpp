// `rushhour report`: pages of runs of every engine, of a walled run and of puzzle databases,
// each loaded in headless Chromium by scripts/report_browser.py, which reads the page's
// figures back against the files and plays its solutions to the exit. Without Chromium,
// chromium-driver or python3-selenium (scripts/setup.sh installs them) the browser part skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_test_support.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(full);
RUSHHOUR_TEST_TIER_OF("Report/ReportBadInput.*", quick);
// Of the engines' pages the classes page stays in the full tier, and of the databases' the 4x4
// one with both metrics; the others add little to them.
RUSHHOUR_TEST_TIER_OF("Report/ReportOfEngine.PagePassesTheBrowserCheck/bdd", long);
RUSHHOUR_TEST_TIER_OF("Report/ReportOfEngine.PagePassesTheBrowserCheck/explicit", long);
RUSHHOUR_TEST_TIER_OF("Report/ReportOfEngine.PagePassesTheBrowserCheck/classes_walls", long);
RUSHHOUR_TEST_TIER_OF("Report/ReportOfEngine.PagePassesTheBrowserCheck/bdd_walls", long);
RUSHHOUR_TEST_TIER_OF("Report.CommittedPuzzleDatabaseListsTheFiftyOneMovePuzzle", long);

namespace {

namespace fs = std::filesystem;
using rushhour::test_support::CommandRun;
using rushhour::test_support::run_rushhour;
using rushhour::test_support::run_shell;
using rushhour::test_support::read_text;
using rushhour::test_support::TempDir;

const std::string kSource = RUSHHOUR_SOURCE_DIR;
constexpr int kBrowserMissing = 3;


// The page stands alone: nothing it would load from elsewhere.
void expect_self_contained(const std::string& page) {
  for (const char* outside : {"<link", "src=\"", "href=\"http", "url(http", "url(\"http", "url('http", "@import"})
    EXPECT_EQ(page.find(outside), std::string::npos) << outside;
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
}

// scripts/report_browser.py --check on `page`; skips the test when the browser is missing.
#define EXPECT_BROWSER_CHECK_PASSES(page, what, players)                                                   \
  do {                                                                                                     \
    const CommandRun browser = run_shell("/usr/bin/python3 " + kSource + "/scripts/report_browser.py " +   \
                                         (page) + " --check " + (what) + " --players " + (players));       \
    if (browser.status == kBrowserMissing) GTEST_SKIP() << browser.err;                                    \
    EXPECT_EQ(browser.status, 0) << browser.out << browser.err;                                            \
    EXPECT_NE(browser.out.find("players reach the winning position"), std::string::npos) << browser.out;   \
  } while (false)

std::string digest_of(const std::string& classify_out) {
  const auto at = classify_out.find("run digest ");
  return at == std::string::npos ? "" : classify_out.substr(at + 11, 16);
}

struct EngineCase {
  const char* name;
  const char* classify;
};

class ReportOfEngine : public ::testing::TestWithParam<EngineCase> {};

TEST_P(ReportOfEngine, PagePassesTheBrowserCheck) {
  TempDir dir("rushhour_report_engine");
  const CommandRun classified = run_rushhour(std::string(GetParam().classify) + " -q --out " + (dir / "run"));
  ASSERT_EQ(classified.status, 0) << classified.err;
  const CommandRun report = run_rushhour("report --run " + (dir / "run") + " --samples 1 --indices 2");
  ASSERT_EQ(report.status, 0) << report.err;
  EXPECT_EQ(report.out, (dir / "run") + "/report.html\n");
  const std::string page = read_text(dir / "run/report.html");
  expect_self_contained(page);
  const std::string digest = digest_of(classified.out);
  ASSERT_EQ(digest.size(), 16u) << classified.out;
  EXPECT_NE(page.find(digest), std::string::npos) << "the page lacks the run digest " << digest;
  // A class run's census per (walls,) cars and trucks.
  EXPECT_EQ(page.find("id=\"census\"") != std::string::npos, std::string(GetParam().name).rfind("classes", 0) == 0);
  EXPECT_BROWSER_CHECK_PASSES(dir / "run/report.html", "--run " + (dir / "run"), "2");
}

INSTANTIATE_TEST_SUITE_P(Report, ReportOfEngine,
                         ::testing::Values(EngineCase{"classes", "classify --size 4 --engine classes"},
                                           EngineCase{"bdd", "classify --size 4 --metric move"},
                                           EngineCase{"explicit", "classify --size 4 --engine explicit"},
                                           EngineCase{"classes_walls", "classify --size 4 --engine classes --walls 1"},
                                           EngineCase{"bdd_walls", "classify --size 4 --walls 0-1 --metric move"}),
                         [](const auto& engine_case) { return std::string(engine_case.param.name); });

TEST(Report, DemoRunOfTheReadmeFirstCommand) {
  TempDir dir("rushhour_report_demo");
  ASSERT_EQ(run_rushhour("classify --config " + kSource + "/configs/demo-5x5.cfg -q --out " + (dir / "demo")).status, 0);
  const CommandRun report = run_rushhour("report --run " + (dir / "demo") + " --indices 2 --samples 1");
  ASSERT_EQ(report.status, 0) << report.err;
  EXPECT_BROWSER_CHECK_PASSES(dir / "demo/report.html", "--run " + (dir / "demo"), "1");
}

TEST(Report, DatabasePageWithBothMetricsAndMinimalPuzzles) {
  TempDir dir("rushhour_report_database");
  ASSERT_EQ(run_rushhour("classify --size 4 --engine classes --metric move -q --out " + (dir / "run") +
                         " --clusters " + (dir / "db.h5") + " --clusters-metrics both")
                .status,
            0);
  const CommandRun report = run_rushhour("report --clusters " + (dir / "db.h5") + " --top 1 --minimal");
  ASSERT_EQ(report.status, 0) << report.err;
  EXPECT_EQ(report.out, (dir / "db.html") + "\n");
  const std::string page = read_text(dir / "db.html");
  expect_self_contained(page);
  // The hardest 4x4 puzzle under moves, in the public database's line format.
  EXPECT_NE(page.find("value=\"7 BBoCAAoCDEEEDoFF 34\""), std::string::npos);
  EXPECT_BROWSER_CHECK_PASSES(dir / "db.html", "--clusters " + (dir / "db.h5"), "2");
}

TEST(Report, CommittedSixBySixStepRunPlaysItsNinetyThreeSteps) {
  TempDir dir("rushhour_report_6x6");
  const std::string run = kSource + "/results/6x6-step/classes";
  const CommandRun report = run_rushhour("report --run " + run + " --indices 1 --samples 1 --out " + (dir / "page.html"));
  ASSERT_EQ(report.status, 0) << report.err;
  const std::string page = read_text(dir / "page.html");
  EXPECT_NE(page.find("Index 93: 1 configuration"), std::string::npos);
  EXPECT_BROWSER_CHECK_PASSES(dir / "page.html", "--run " + run, "1");
}

TEST(Report, CommittedPuzzleDatabaseListsTheFiftyOneMovePuzzle) {
  TempDir dir("rushhour_report_6x6_database");
  const std::string database = kSource + "/results/6x6-puzzle/clusters-40/clusters.h5";
  const CommandRun report = run_rushhour("report --clusters " + database + " --top 1 --out " + (dir / "db.html"));
  ASSERT_EQ(report.status, 0) << report.err;
  const std::string page = read_text(dir / "db.html");
  EXPECT_NE(page.find("data-metric=\"move\" data-index=\"51\""), std::string::npos);
  EXPECT_NE(page.find("value=\"51 BoCCDoBEFoDGBEFAAGHHHIoGooJIKKLLJMMo 4780\""), std::string::npos);
  EXPECT_BROWSER_CHECK_PASSES(dir / "db.html", "--clusters " + database, "1");
}

struct BadReport {
  std::string args;
  std::string reason;
};

class ReportBadInput : public ::testing::TestWithParam<BadReport> {};

TEST_P(ReportBadInput, OneLineAndExit2) {
  static TempDir dir("rushhour_report_bad");
  fs::create_directories(dir / "text");
  std::ofstream(dir / "text/classification.h5") << "not HDF5\n";
  std::string args = GetParam().args;
  for (auto at = args.find("TMP"); at != std::string::npos; at = args.find("TMP")) args.replace(at, 3, dir.path());
  const CommandRun run = run_rushhour(args);
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find(GetParam().reason), std::string::npos) << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    Report, ReportBadInput,
    ::testing::Values(BadReport{"report", "report needs --run DIR or --clusters DB"},
                      BadReport{"report --run TMP/none", "no classification.h5"},
                      BadReport{"report --run TMP/text", "not an HDF5 file"},
                      BadReport{"report --clusters TMP/text/classification.h5", "not an HDF5 file"},
                      BadReport{"report --clusters " + kSource + "/results/4x4-step/classification.h5",
                                "not a rushhour cluster database"},
                      BadReport{"report --run TMP/none --clusters TMP/db.h5", "not both"},
                      BadReport{"report --run TMP/text --top 3", "--top goes with --clusters"},
                      BadReport{"report --run TMP/text --minimal", "--minimal goes with --clusters"},
                      BadReport{"report --clusters TMP/db.h5 --samples 2", "--samples goes with --run"},
                      BadReport{"report --run TMP/text --samples 0", "--samples must be at least 1"},
                      BadReport{"report --run TMP/text --colour red", "colour"}));

}  // namespace
