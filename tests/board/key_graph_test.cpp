#include "board/key_graph.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "board/board_string.hpp"
#include "board/errors.hpp"
#include "board/game.hpp"
#include "explicit/explicit_engine.hpp"
#include "test_tier.hpp"

RUSHHOUR_TEST_TIER(quick);

namespace rushhour {
namespace {

std::vector<BoardKey> sorted(std::vector<BoardKey> keys) {
  const auto less = [](const BoardKey& a, const BoardKey& b) {
    return std::tie(a.first, a.horizontal, a.occupied) < std::tie(b.first, b.horizontal, b.occupied);
  };
  std::sort(keys.begin(), keys.end(), less);
  return keys;
}

std::vector<BoardKey> key_slides(const Board& board, Metric metric) {
  std::vector<BoardKey> keys;
  for_each_slide(board.key(), board.size(), metric, [&](const BoardKey& next) { keys.push_back(next); });
  return sorted(keys);
}

std::vector<BoardKey> board_slides(const Board& board, Metric metric) {
  std::vector<BoardKey> keys;
  for (const Board& next : neighbours(metric, board)) keys.push_back(next.key());
  return sorted(keys);
}

// Random boards of every supported size: vehicles dropped at random places until several
// attempts in a row fail, so that boards range from sparse to packed.
Board random_board(int size, std::mt19937& random) {
  std::vector<Vehicle> vehicles;
  std::uniform_int_distribution<int> cell(0, size - 1);
  std::uniform_int_distribution<int> coin(0, 1);
  const int attempts = std::uniform_int_distribution<int>(1, 40)(random);
  for (int a = 0; a < attempts; ++a) {
    const Orientation orientation = coin(random) ? Orientation::Horizontal : Orientation::Vertical;
    std::vector<Vehicle> tried = vehicles;
    tried.push_back(Vehicle{cell(random), cell(random), orientation, coin(random) ? 3 : 2});
    try {
      Board(size, tried);
      vehicles = std::move(tried);
    } catch (const InputError&) {
    }
  }
  return Board(size, vehicles);
}

// for_each_step is for_each_slide with Metric::Step; both metrics against the Board moves.
TEST(KeySlides, EqualTheBoardStepsAndMovesOnEveryFourByFourConfiguration) {
  const ExplicitSolution domain = ExplicitSolution::solve(Rules(4));
  for (std::size_t s = 0; s < domain.domain_size(); ++s) {
    const Board board = domain.board(s);
    for (const Metric metric : {Metric::Step, Metric::Move})
      ASSERT_EQ(key_slides(board, metric), board_slides(board, metric)) << s << " " << to_string(metric);
  }
}

TEST(KeySlides, EqualTheBoardStepsAndMovesOnRandomBoardsOfSizesFourToEight) {
  std::mt19937 random(7);
  for (int size = 4; size <= 8; ++size)
    for (int trial = 0; trial < 3000; ++trial) {
      const Board board = random_board(size, random);
      for (const Metric metric : {Metric::Step, Metric::Move})
        ASSERT_EQ(key_slides(board, metric), board_slides(board, metric))
            << "size " << size << " trial " << trial << " " << to_string(metric);
    }
}

TEST(BoardOfKey, InvertsBoardKeyOnRandomBoardsOfSizesFourToEight) {
  std::mt19937 random(3);
  for (int size = 4; size <= 8; ++size)
    for (int trial = 0; trial < 3000; ++trial) {
      const Board board = random_board(size, random);
      ASSERT_EQ(board_of_key(board.key(), size), board) << "size " << size << " trial " << trial;
    }
}

// Every line's kind sequence, rows then columns, read off the board's vehicles.
std::vector<std::vector<int>> kind_sequences(const Board& board) {
  const int size = board.size();
  std::vector<std::vector<std::pair<int, int>>> lines(2 * size);  // (position along, length)
  for (const Vehicle& v : board.vehicles()) {
    if (v.orientation == Orientation::Horizontal)
      lines[v.row].push_back({v.col, v.length});
    else
      lines[size + v.col].push_back({v.row, v.length});
  }
  std::vector<std::vector<int>> sequences;
  for (auto& line : lines) {
    std::sort(line.begin(), line.end());
    std::vector<int> lengths;
    for (const auto& vehicle : line) lengths.push_back(vehicle.second);
    sequences.push_back(lengths);
  }
  return sequences;
}

TEST(KindSignature, NoStepOrMoveChangesItOnRandomBoardsOfSizesFourToEight) {
  std::mt19937 random(5);
  for (int size = 4; size <= 8; ++size)
    for (int trial = 0; trial < 3000; ++trial) {
      const Board board = random_board(size, random);
      const std::uint64_t signature = kind_signature(board.key(), size);
      for (const Metric metric : {Metric::Step, Metric::Move})
        for_each_slide(board.key(), size, metric, [&](const BoardKey& next) {
          ASSERT_EQ(kind_signature(next, size), signature) << "size " << size << " trial " << trial;
        });
    }
}

TEST(KindSignature, SeparatesTheClassesOfEveryFourByFourConfiguration) {
  const ExplicitSolution domain = ExplicitSolution::solve(Rules(4));
  std::map<std::uint64_t, std::vector<std::vector<int>>> class_of_signature;
  for (std::size_t s = 0; s < domain.domain_size(); ++s) {
    const Board board = domain.board(s);
    const auto [entry, unused] =
        class_of_signature.emplace(kind_signature(board.key(), 4), kind_sequences(board));
    ASSERT_EQ(entry->second, kind_sequences(board)) << to_board_string(Rules(4), board);
  }
  EXPECT_GT(class_of_signature.size(), 100u);
}

TEST(BoardKeySet, AgreesWithAnOrderedSetAcrossGrowth) {
  std::mt19937 random(11);
  BoardKeySet set;
  std::set<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>> reference;
  std::vector<BoardKey> inserted;
  for (int trial = 0; trial < 20000; ++trial) {
    const BoardKey key = random_board(6, random).key();
    if (key.occupied == 0) continue;  // no configuration is empty: the target car is there
    const bool is_new = reference.insert({key.first, key.horizontal, key.occupied}).second;
    ASSERT_EQ(set.contains(key), !is_new);
    ASSERT_EQ(set.insert(key), is_new);
    ASSERT_TRUE(set.contains(key));
    if (is_new) inserted.push_back(key);
  }
  EXPECT_EQ(set.size(), reference.size());
  EXPECT_LT(reference.size(), 20000u);  // some boards repeat, so duplicates were offered
  for (const BoardKey& key : inserted) ASSERT_TRUE(set.contains(key));
  EXPECT_THROW(set.insert(BoardKey{}), std::invalid_argument);
  set.clear();
  EXPECT_EQ(set.size(), 0u);
  EXPECT_FALSE(set.contains(inserted.front()));
}

// Emptied after a large search and after many small ones, the set holds only what was
// inserted since.
TEST(BoardKeySet, HoldsOnlyWhatFollowsEachClear) {
  std::mt19937 random(13);
  std::vector<BoardKey> keys;
  while (keys.size() < 4000) {
    const BoardKey key = random_board(6, random).key();
    if (key.occupied != 0 && std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  BoardKeySet set;
  for (const BoardKey& key : keys) set.insert(key);
  for (std::size_t round = 0; round < 200; ++round) {
    set.clear();
    const std::size_t begin = (round * 17) % keys.size();
    const std::size_t count = round % 2 == 0 ? 5 : 300;
    for (std::size_t k = 0; k < count; ++k) ASSERT_TRUE(set.insert(keys[(begin + k) % keys.size()]));
    ASSERT_EQ(set.size(), count);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const std::size_t offset = (k + keys.size() - begin) % keys.size();
      ASSERT_EQ(set.contains(keys[k]), offset < count) << "round " << round << " key " << k;
    }
  }
}

}  // namespace
}  // namespace rushhour
