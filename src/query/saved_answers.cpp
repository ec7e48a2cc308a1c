#include "query/saved_answers.hpp"

#include "bdd/session.hpp"
#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/search.hpp"
#include "query/class_run.hpp"
#include "query/saved_parts.hpp"
#include "query/saved_run.hpp"
#include "run/run_directory.hpp"
#include "storage/classification_file.hpp"

namespace rushhour {

std::string PieceFilter::describe() const {
  std::string text;
  if (cars >= 0) text += ", " + std::to_string(cars) + " cars";
  if (trucks >= 0) text += ", " + std::to_string(trucks) + " trucks";
  if (vehicles >= 0) text += ", " + std::to_string(vehicles) + " vehicles";
  if (walls >= 0) text += ", " + std::to_string(walls) + (walls == 1 ? " wall" : " walls");
  return text;
}

void PieceFilter::check_walls(const Rules& rules) const {
  if (walls >= 0 && !rules.walls().allows(walls))
    throw InputError("--walls " + std::to_string(walls) + ": the run's configurations hold " +
                     (rules.walls().none() ? std::string("no walls")
                                           : std::to_string(rules.walls().min) + " to " +
                                                 std::to_string(rules.walls().max) + " walls"));
}

namespace {

Board parse_run_board(const Rules& rules, const std::string& text) {
  try {
    return parse_board(text, rules);
  } catch (const InputError& e) {
    throw InputError(std::string("board is not in this run's domain (") + rules.describe() + "): " + e.what());
  }
}

void check_samples(int samples) {
  if (samples < 0) throw InputError("--sample must be >= 0");
}

// The index asked of a run whose counts exist only once it is finished (a class sweep, a
// partitioned run); an answer Empty when it is beyond the highest. Throws InputError while
// the run is unfinished.
IndexAnswer index_of_finished_run(bool complete, const std::string& run, int highest, std::optional<int> asked) {
  if (!complete)
    throw InputError(run + " is not finished, so its counts are partial: finish it with "
                     "classify --resume (--board answers already)");
  IndexAnswer answer;
  answer.hardest = !asked;
  answer.index = asked.value_or(highest);
  if (answer.index < 0) throw InputError("--index must be >= 0");
  if (answer.index > highest) {
    answer.status = IndexAnswer::Status::Empty;
    answer.why = "empty: the highest index is " + std::to_string(highest);
  }
  return answer;
}

// A bdd run's layers.
class LayerAnswers final : public SavedAnswers {
 public:
  explicit LayerAnswers(const std::filesystem::path& directory) : session_(0, BddSettings{}), run_(session_, directory) {}
  const Rules& rules() const override { return run_.rules(); }

  BoardAnswer board(const std::string& text, bool solve) override {
    BoardAnswer answer(run_.rules(), parse_run_board(run_.rules(), text));
    answer.index = run_.index_of(answer.board);
    answer.complete = run_.complete();
    answer.finished_layers = run_.finished_layers();
    if (answer.index && solve) answer.path = run_.solution(answer.board, *answer.index);
    answer.cluster = cluster_of_board(run_.rules(), answer.board);
    return answer;
  }

  IndexAnswer index(std::optional<int> asked, const PieceFilter& filter, int samples) override {
    check_samples(samples);
    IndexAnswer answer;
    answer.hardest = !asked;
    answer.index = asked.value_or(run_.finished_layers() - 1);
    if (answer.index < 0) throw InputError("--index must be >= 0");
    if (answer.index >= run_.finished_layers()) {
      answer.status = run_.complete() ? IndexAnswer::Status::Empty : IndexAnswer::Status::Unknown;
      answer.why = run_.complete() ? "empty: the highest index is " + std::to_string(run_.finished_layers() - 1)
                                   : "unknown: the run has " + std::to_string(run_.finished_layers()) + " finished layers";
      return answer;
    }
    bdd states = run_.layer(answer.index);
    if (filter.active()) {
      PieceFilter vehicles = filter;
      vehicles.walls = -1;  // the walls are counted apart
      states &= run_.encoding().vehicle_counts_where(vehicles) & run_.encoding().wall_count_is(filter.walls);
    }
    answer.count = run_.encoding().state_set(states).count();
    answer.incomplete = !run_.complete();
    if (samples > 0)  // the first boards in the encoding's order
      run_.encoding().for_each_board(states, [&](const Board& board) {
        answer.boards.push_back(to_board_string(run_.rules(), board));
        return static_cast<int>(answer.boards.size()) < samples;
      });
    return answer;
  }

 private:
  BddSession session_;
  SavedRun run_;
};

// A board answered by searching: its shortest solution and its component (board/search.hpp),
// exact whatever the run saved.
BoardAnswer searched_board(const Rules& rules, const std::string& text, bool solve) {
  BoardAnswer answer(rules, parse_run_board(rules, text));
  if (auto path = shortest_solution(rules, answer.board)) {
    answer.index = static_cast<int>(path->size()) - 1;
    if (solve) answer.path = std::move(*path);
  }
  answer.cluster = cluster_of_board(rules, answer.board);
  return answer;
}

// A class sweep's census: a board's component is searched (exact whether or not the sweep has
// finished); counts come from the census once it is.
class CensusAnswers final : public SavedAnswers {
 public:
  explicit CensusAnswers(ClassCensus census) : census_(std::move(census)) {}
  const Rules& rules() const override { return census_.rules; }

  BoardAnswer board(const std::string& text, bool solve) override { return searched_board(census_.rules, text, solve); }

  IndexAnswer index(std::optional<int> asked, const PieceFilter& filter, int samples) override {
    check_samples(samples);
    const int highest = static_cast<int>(census_.classification().layers.size()) - 1;
    IndexAnswer answer = index_of_finished_run(census_.complete, "the class sweep of this run", highest, asked);
    if (answer.status != IndexAnswer::Status::Ok) return answer;
    answer.count = census_count(census_, answer.index, filter);
    const auto slot = static_cast<std::size_t>(answer.index);
    const bool sampled = slot < census_.samples.size() && !census_.samples[slot].empty();
    if (sampled)
      for (const auto& [key, text] : census_.samples[slot]) {
        if (static_cast<int>(answer.boards.size()) >= samples) break;
        const Board board = parse_board(text, census_.rules);
        if (filter(board.cars(), board.trucks(), board.wall_count())) answer.boards.push_back(text);
      }
    // A class sweep keeps the least boards of its highest indices only (classify --samples,
    // --sample-indices); a bdd run of the same board gives samples of every index.
    if (samples > 0 && !sampled && answer.count > 0)
      answer.note = "(no sample boards of index " + std::to_string(answer.index) +
                    ": a class run keeps those of its highest indices only)";
    return answer;
  }

 private:
  ClassCensus census_;
};

// A run with its result only (the explicit engine, or a bdd run without its layers): a board's
// component is searched, an index's count and samples come from classification.h5, which holds
// no counts per number of vehicles.
class ResultAnswers final : public SavedAnswers {
 public:
  explicit ResultAnswers(Classification result) : result_(std::move(result)) {}
  const Rules& rules() const override { return result_.rules; }

  BoardAnswer board(const std::string& text, bool solve) override { return searched_board(result_.rules, text, solve); }

  IndexAnswer index(std::optional<int> asked, const PieceFilter& filter, int samples) override {
    check_samples(samples);
    if (filter.active())
      throw InputError("this run keeps classification.h5 only, no counts per number of cars, trucks or walls "
                       "(--cars, --trucks, --vehicles, --walls need a bdd run's layers or a classes run)");
    const int highest = static_cast<int>(result_.layers.size()) - 1;
    IndexAnswer answer = index_of_finished_run(result_.complete, "the explicit run", highest, asked);
    if (answer.status != IndexAnswer::Status::Ok) return answer;
    answer.count = result_.layers[static_cast<std::size_t>(answer.index)].count;
    for (const Sample& sample : result_.samples)
      if (static_cast<int>(sample.index) == answer.index && static_cast<int>(answer.boards.size()) < samples)
        answer.boards.push_back(sample.board);
    if (samples > 0 && answer.boards.empty() && answer.count > 0)
      answer.note = "(no sample boards of index " + std::to_string(answer.index) +
                    ": classification.h5 keeps those of the highest indices only)";
    return answer;
  }

 private:
  Classification result_;
};

// A partitioned run: the board's part knows it (the run need not be finished); counts are
// the parts' summed, the first boards over every part.
class PartAnswers final : public SavedAnswers {
 public:
  explicit PartAnswers(std::unique_ptr<SavedParts> parts) : parts_(std::move(parts)) {}
  const Rules& rules() const override { return parts_->rules(); }

  BoardAnswer board(const std::string& text, bool solve) override {
    BoardAnswer answer(parts_->rules(), parse_run_board(parts_->rules(), text));
    const SavedParts::BoardIndex found = parts_->index_of(answer.board);
    answer.index = found.index;
    answer.complete = found.part_complete;
    answer.finished_layers = found.part_layers;
    if (!found.part_finished) answer.unknown_part = found.part;
    if (answer.index && solve) answer.path = parts_->solution(answer.board, *answer.index);
    answer.cluster = cluster_of_board(parts_->rules(), answer.board);
    return answer;
  }

  IndexAnswer index(std::optional<int> asked, const PieceFilter& filter, int samples) override {
    check_samples(samples);
    IndexAnswer answer = index_of_finished_run(parts_->complete(), "the partitioned run", parts_->highest_index(), asked);
    if (answer.status != IndexAnswer::Status::Ok) return answer;
    const SavedParts::VehicleFilter wanted = filter.active() ? SavedParts::VehicleFilter(filter) : nullptr;
    answer.count = parts_->count(answer.index, wanted);
    for (const Board& board : parts_->first_boards(answer.index, wanted, samples))
      answer.boards.push_back(to_board_string(parts_->rules(), board));
    return answer;
  }

 private:
  std::unique_ptr<SavedParts> parts_;
};

}  // namespace

std::unique_ptr<SavedAnswers> open_saved_answers(const std::filesystem::path& directory) {
  if (run::RunDirectory(directory).has_part_figures_only())
    throw InputError(directory.string() + ": a partitioned run that keeps its parts' figures only (--part-files "
                     "figures), no layers to answer from; its figures are in classification.h5");
  if (std::unique_ptr<SavedParts> parts = SavedParts::open(directory))
    return std::make_unique<PartAnswers>(std::move(parts));
  if (std::optional<ClassCensus> census = open_class_run(directory))
    return std::make_unique<CensusAnswers>(std::move(*census));
  const run::RunDirectory run(directory);
  // An explicit run saves no layers; a bdd run whose layers are gone (deleted for disk, or a
  // committed result that keeps its figures only) still answers from classification.h5.
  if (!run.has_layers() && std::filesystem::exists(run.result_file()))
    return std::make_unique<ResultAnswers>(read_classification(run.result_file()));
  return std::make_unique<LayerAnswers>(directory);
}

BoardAnswer board_of_database(const ClusterDatabase& database, Metric metric, const std::string& text, bool solve) {
  const Rules rules = database.rules().with_metric(metric);
  BoardAnswer answer(rules, parse_run_board(rules, text));
  answer.cluster = cluster_of_board(rules, answer.board);
  if (answer.cluster) answer.index = answer.cluster->board_index;
  if (answer.cluster && database.both_metrics())
    answer.other_cluster = cluster_of_board(rules.with_metric(other_metric(metric)), answer.board);
  if (answer.index && solve) answer.path = *shortest_solution(rules, answer.board);
  return answer;
}

}  // namespace rushhour
