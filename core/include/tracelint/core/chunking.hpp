#pragma once
// Splitting a large function body into chunks of whole statements that are parsed separately,
// in parallel, and taken in order. Shared by the trace parser and the tracer's frontend
// (an implementation detail, so not a public header).
#include "tracelint/core/edited_text.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace tracelint::chunking {

// The lines of an EditedText from an offset on, as tree-sitter sees them (replacements
// applied): for (Lines lines(text, from); lines.next();) read text(), begin(), next_begin().
class Lines {
public:
  Lines(const EditedText &text, std::size_t from) : text_(text), next_(from) {}
  bool next() {
    if (next_ >= text_.size()) return false;
    begin_ = next_;
    std::size_t nl = text_.original().find('\n', begin_);
    std::size_t end = nl == std::string::npos ? text_.size() : nl;
    line_ = text_.line(begin_, end, scratch_);
    next_ = nl == std::string::npos ? text_.size() : nl + 1;
    return true;
  }
  std::string_view text() const { return line_; } // without its newline
  std::size_t begin() const { return begin_; }
  std::size_t next_begin() const { return next_; } // where the next line starts, or the end

private:
  const EditedText &text_;
  std::size_t next_, begin_ = 0;
  std::string_view line_;
  std::string scratch_;
};

// Bodies of large files are split into chunks of whole statements (a statement with its
// comments never straddles two chunks), parsed separately and in parallel, and handed on in
// order: each tree is small, the cores share the work, and a reader that drops statements once
// used never holds more than a few chunks.
// The fuzz build (scripts/fuzz.sh) makes chunks small, so that a fuzzer's input is split
// without first being padded to 16 KB, which made each input cost 20 times more.
#ifdef TRACELINT_CHUNK_BYTES
constexpr std::size_t kChunkBytes = TRACELINT_CHUNK_BYTES;
#else
constexpr std::size_t kChunkBytes = 8 * 1024;
#endif
constexpr std::size_t kChunkedFileBytes = 2 * kChunkBytes;

// A chunk, or a fragment of body lines copied out of a trace, is parsed as the body of this
// def, so that its indented statements are valid.
inline const std::string kChunkPrefix = "def _():\n";

struct BodyChunks {
  std::size_t def_offset = 0;                            // the def whose body is split
  std::vector<std::pair<std::size_t, std::size_t>> rest; // byte ranges after the first chunk
  uint32_t indent = 0;
};

// A triple-quoted string can span lines, which the line-by-line passes cannot follow.
inline bool has_triple_quote(std::string_view text) {
  return text.find("\"\"\"") != std::string_view::npos ||
         text.find("\'\'\'") != std::string_view::npos;
}

// After a line of code: how deep in brackets the next line starts, and whether it continues
// this one (a trailing backslash).
void track_brackets(std::string_view line, int &depth, bool &continued);
// The same for a line of a text read line by line: `triple` is the quote of the triple-quoted
// string open where the line starts (0: none), left as the one open where it ends.
void track_brackets(std::string_view line, int &depth, bool &continued, char &triple);

// The chunks of the first def whose body is large enough to split, or none where no split is
// safe (a triple-quoted string, an unterminated string, a dedent to no enclosing level).
std::optional<BodyChunks> find_chunks(const EditedText &text, const std::string &original);

// What a parse keeps on its thread from one chunk to the next; none by default.
struct NoThreadState {};

// Parses `count` chunks with `parse(i, state)` on worker threads and on the thread that takes
// them, which takes them in order; each thread has its own `State` (e.g. a reused parser).
// Workers stay at most threads + 1 chunks ahead of the taker, so that a taker that drops each
// chunk once used holds only a few. `parse` must not throw.
template <class Part, class State = NoThreadState> class ChunkPipeline {
public:
  ChunkPipeline(std::size_t count, unsigned threads, std::function<Part(std::size_t)> parse)
      : ChunkPipeline(
            count, threads,
            std::function<Part(std::size_t, State &)>(
                [parse = std::move(parse)](std::size_t i, State &) { return parse(i); })) {}
  ChunkPipeline(std::size_t count, unsigned threads,
                std::function<Part(std::size_t, State &)> parse)
      // threads + 1 in size_t: in unsigned, -j 4294967295 made the window 0, and with no chunk
      // ever claimable every thread waited for the others.
      : parse_(std::move(parse)), parts_(count), window_(std::size_t{threads} + 1) {
    unsigned extra = threads > 1 ? threads - 1 : 0;
    for (unsigned i = 0; i < extra && i < parts_.size(); ++i)
      workers_.emplace_back([this] { work(); });
  }
  ChunkPipeline(const ChunkPipeline &) = delete;
  ChunkPipeline &operator=(const ChunkPipeline &) = delete;
  ~ChunkPipeline() {
    {
      std::lock_guard lock(mutex_);
      next_ = parts_.size(); // nothing more to start
    }
    changed_.notify_all();
    for (std::thread &w : workers_)
      w.join();
  }
  std::size_t size() const { return parts_.size(); }

  // The i-th chunk; call with i = 0, 1, 2, ... and `done(i)` once it is used. While chunk i is
  // not ready, this thread parses the next unclaimed chunk inside the window.
  Part take(std::size_t i) {
    std::unique_lock lock(mutex_);
    while (!parts_[i]) {
      if (claimable()) {
        parse_next(lock, taker_state_);
        continue;
      }
      changed_.wait(lock, [&] { return parts_[i].has_value() || claimable(); });
    }
    Part part = std::move(*parts_[i]);
    parts_[i].reset();
    return part;
  }
  void done(std::size_t i) {
    {
      std::lock_guard lock(mutex_);
      taken_ = i + 1;
    }
    changed_.notify_all();
  }

private:
  bool claimable() const { return next_ < parts_.size() && next_ < taken_ + window_; }

  void work() {
    State state;
    std::unique_lock lock(mutex_);
    while (true) {
      changed_.wait(lock, [&] { return next_ >= parts_.size() || claimable(); });
      if (next_ >= parts_.size()) return;
      parse_next(lock, state);
    }
  }

  // Claims the next chunk, parses it without the lock, and publishes it.
  void parse_next(std::unique_lock<std::mutex> &lock, State &state) {
    std::size_t i = next_++;
    lock.unlock();
    Part part = parse_(i, state);
    lock.lock();
    parts_[i] = std::move(part);
    changed_.notify_all();
  }

  std::function<Part(std::size_t, State &)> parse_;
  State taker_state_; // used only by the thread that calls take()
  std::vector<std::optional<Part>> parts_;
  std::size_t window_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t next_ = 0;  // the first chunk nobody has started
  std::size_t taken_ = 0; // chunks the taker is done with
  std::vector<std::thread> workers_;
};

} // namespace tracelint::chunking
