#include "bdd/session.hpp"

#include <algorithm>
#include <limits>

#include "board/errors.hpp"

// Two BuDDy internals (its kernel.h, not installed; exported by the library) that
// BddSession::ensure_variables needs to work around bdd_setvarnum: the reference stack and
// the node table's growth step.
extern "C" {
extern int* bddrefstack;
int bdd_noderesize(int rehash);
}

namespace rushhour {
namespace {

// BuDDy's hooks are plain C function pointers; they reach the live session through this.
BddSession* active_session = nullptr;

// BuDDy 2.4: a node is five ints (20 bytes); each of its six operation caches holds entries
// of 24 bytes. Used only to turn a byte ceiling into a node ceiling; with cache ratio 4 that
// is 56 bytes per node, and a 6x6 run measured 53.5 (6849 MiB RSS at 128 M nodes).
constexpr std::uint64_t kBytesPerNode = 20;
constexpr std::uint64_t kBytesPerCacheEntry = 24 * 6;

}  // namespace

void BddSettings::check() const {
  if (initial_nodes < 1000) throw InputError("--bdd-nodes must be at least 1000");
  if (cache_size < 100) throw InputError("--bdd-cache must be at least 100");
  if (cache_ratio < 0) throw InputError("--bdd-cache-ratio must be >= 0");
  if (max_increase < 0) throw InputError("--bdd-max-increase must be >= 0");
  if (min_free_percent < 0 || min_free_percent > 99)
    throw InputError("--bdd-min-free must be in 0..99");
  if (max_nodes < 0 || max_nodes > std::numeric_limits<int>::max())
    throw InputError("--bdd-max-nodes must be in 0.." +
                     std::to_string(std::numeric_limits<int>::max()));
  if (max_nodes > 0 && max_nodes < initial_nodes)
    throw InputError("--bdd-max-nodes is below the initial node table size --bdd-nodes");
  if (max_bytes > 0 && node_ceiling() < initial_nodes)
    throw InputError("--max-memory is too small for the initial node table (--bdd-nodes)");
}

std::int64_t BddSettings::node_ceiling() const {
  std::int64_t ceiling = max_nodes;
  if (max_bytes > 0) {
    const std::uint64_t per_node =
        kBytesPerNode + (cache_ratio > 0 ? kBytesPerCacheEntry / cache_ratio : 0);
    const std::uint64_t fixed = cache_ratio > 0 ? 0 : kBytesPerCacheEntry * cache_size;
    const auto by_bytes = static_cast<std::int64_t>(
        max_bytes > fixed ? std::min<std::uint64_t>((max_bytes - fixed) / per_node,
                                                     std::numeric_limits<int>::max())
                          : 0);
    ceiling = ceiling > 0 ? std::min(ceiling, by_bytes) : by_bytes;
  }
  return ceiling;
}

BddSession::BddSession(int variable_count, const BddSettings& settings,
                       std::function<void(const std::string&)> log)
    : settings_(settings), variable_count_(0), log_(std::move(log)) {
  settings_.check();
  if (active_session != nullptr || bdd_isrunning())
    throw std::logic_error("only one BddSession may exist at a time");
  if (bdd_init(settings_.initial_nodes, settings_.cache_size) < 0)
    throw BddFailure("BuDDy could not start with " + std::to_string(settings_.initial_nodes) +
                     " nodes");
  active_session = this;
  bdd_error_hook(&BddSession::on_error);
  bdd_gbc_hook(&BddSession::on_gc);
  bdd_resize_hook(&BddSession::on_resize);
  // BuDDy's own "error condition" outlives bdd_done(); a new session starts clean.
  bdd_clear_error();
  // BuDDy grows the table by min(doubling, max increase); 0 would forbid growth, so "no
  // limit" is a large increase (kept far from int overflow in BuDDy's size arithmetic).
  bdd_setmaxincrease(settings_.max_increase > 0 ? settings_.max_increase : 1 << 28);
  bdd_setminfreenodes(settings_.min_free_percent);
  if (settings_.cache_ratio > 0) bdd_setcacheratio(settings_.cache_ratio);
  // BuDDy rounds the initial table up to a prime and rejects a ceiling below the table it
  // has; a ceiling within that rounding means "no growth".
  if (const std::int64_t ceiling = settings_.node_ceiling(); ceiling > 0)
    bdd_setmaxnodenum(static_cast<int>(std::max<std::int64_t>(ceiling, bdd_getallocnum())));
  bdd_disable_reorder();
  try {
    ensure_variables(variable_count);
  } catch (...) {
    bdd_done();
    active_session = nullptr;
    throw;
  }
}

BddSession::~BddSession() {
  // BuDDy's bdd_done frees its variable tables without forgetting them, and bdd_setvarnum
  // reallocates them: a session that never declared a variable would free the previous
  // session's tables a second time (heap corruption, seen under valgrind). Declaring one
  // variable gives it tables of its own.
  if (variable_count_ == 0) bdd_setvarnum(1);
  bdd_done();
  active_session = nullptr;
}

void BddSession::check() const {
  if (failure_code_ == 0) return;
  std::string what = std::string("BDD package failure: ") + bdd_errstring(failure_code_);
  if (failure_code_ == BDD_NODENUM)
    what += " (node table ceiling " + std::to_string(settings_.node_ceiling()) +
            " nodes reached; raise --bdd-max-nodes or --max-memory)";
  if (failure_code_ == BDD_MEMORY) what += " (out of memory while growing the node table)";
  throw BddFailure(what);
}

void BddSession::ensure_variables(int count) {
  if (count <= variable_count_) return;
  // BuDDy 2.4 counts a reference-stack slot before the node that fills it is made
  // (PUSHREF(bdd_makenode(...)) increments first), and a garbage collection marks every
  // counted slot. bdd_setvarnum allocates a new stack and pushes each new variable's node:
  // a collection inside it marked the new block's garbage as a node index (a segmentation
  // fault in bdd_mark, seen in 6x6 runs), and so could the first collection inside a later
  // operation reaching a slot never written. bdd_makenode collects only when no node is
  // free, so the free nodes for the new variables (two each) are made here first, and the
  // new stack is zeroed (0 is a terminal, which marking skips).
  // The collection also empties BuDDy's satcount cache, which holds counts scaled by the
  // old number of variables and survives bdd_setvarnum (seen: a count of 1 for 2).
  if (variable_count_ > 0) bdd_gbc();
  const std::int64_t needed = 2 * static_cast<std::int64_t>(count - variable_count_);
  while (bdd_getallocnum() - bdd_getnodenum() < needed)
    if (bdd_noderesize(1) < 0)
      throw BddFailure("the node table ceiling (" + std::to_string(bdd_getallocnum()) +
                       " nodes) leaves no room to declare " + std::to_string(count) +
                       " variables; raise --bdd-max-nodes or --max-memory");
  if (bdd_setvarnum(count) < 0)
    throw BddFailure("BuDDy could not declare " + std::to_string(count) + " variables");
  std::fill_n(bddrefstack, 2 * static_cast<std::size_t>(count) + 4, 0);
  variable_count_ = count;
}

std::int64_t BddSession::table_nodes() const { return bdd_getallocnum(); }
std::int64_t BddSession::live_nodes() const { return bdd_getnodenum(); }

std::string BddSession::buddy_version() { return bdd_versionstr(); }

void BddSession::on_error(int code) {
  if (active_session == nullptr) return;
  if (active_session->failure_code_ == 0) active_session->failure_code_ = code;
  if (active_session->log_)
    active_session->log_(std::string("BuDDy error: ") + bdd_errstring(code));
}

void BddSession::on_gc(int pre, bddGbcStat* stat) {
  if (active_session == nullptr || pre) return;
  ++active_session->gc_count_;
  if (active_session->log_)
    active_session->log_("bdd gc #" + std::to_string(stat->num) + ": " +
                         std::to_string(stat->nodes) + " nodes, " + std::to_string(stat->freenodes) +
                         " free");
}

void BddSession::on_resize(int old_size, int new_size) {
  if (active_session != nullptr && active_session->log_)
    active_session->log_("bdd node table " + std::to_string(old_size) + " -> " +
                         std::to_string(new_size));
}

}  // namespace rushhour
