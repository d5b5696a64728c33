#pragma once
// TLA001's function summaries across translation units: a chain from a printed value to a debug
// repr may run through a function defined in another unit of the same run (`tracelint analyze
// a.cpp b.cpp`, or the files of a compilation database). Each unit tells the run which of its
// functions' text is a repr (by USR), and leaves the findings that wait on a function it has
// no body for; the run finishes them once every unit is in.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tracelint::analyzer {

// One step of a chain: a function and where in it the next step is reached; the repr itself
// last, with no place.
struct ReprStep {
  std::string function; // `toString()`, `operator<<`, `formatter<T>::format`
  std::string file;
  unsigned line = 0;
};

struct ReprChain {
  std::vector<ReprStep> steps;
  // The chain goes on in a function this unit has no body for (its USR): known once the unit
  // that defines it is analysed.
  std::string continues_in;
  std::string continues_name; // that function's name (`toString`, `operator<<`)
};

// The steps as a message shows them: ` → `-separated, a place in main_file as `line N`, one in
// another file as `FILE:N`.
std::string render_steps(const std::vector<ReprStep> &steps, const std::string &main_file);

// The TLA001 message's advice, after the chain.
inline constexpr const char *kReprAdvice =
    ", printed into generated Python; print the value's Python spelling (a proxy's name) instead";

// A TLA003/TLA004 finding in the text a function returns, found in the unit that defines it
// where that text goes into no Python: the units that print its result into Python report it
// where they do.
struct TextProblem {
  std::string code;
  std::string message;
  std::string file;
  unsigned line = 0;
};

class UnitSummaries {
public:
  // What a unit found for one of its functions: a chain that ends at a repr, or one that goes
  // on elsewhere.
  void define(const std::string &usr, ReprChain chain);
  // The whole chain, following continues_in through the functions defined so far; none when it
  // ends at a function no unit defined, or goes round.
  std::optional<std::vector<ReprStep>> resolve(const ReprChain &chain) const;

  void define_problems(const std::string &usr, std::vector<TextProblem> problems);
  // A unit has the function's body (whether or not its text is a repr or has problems).
  void saw(const std::string &usr) { seen_.insert(usr); }
  // The functions that waiting findings need and no unit defined yet, by name: what to look for
  // in the compilation database's other units.
  std::set<std::string> missing_names() const;
  // The problems in the text of a function (by USR) that some unit defined.
  const std::vector<TextProblem> *problems(const std::string &usr) const;

  // A value printed into Python whose chain goes on in another unit: `text` is the message so
  // far (`stop` → ...), at bytes [begin, end) of `path`. With text_problems, the value is the
  // result of a function of another unit: its TextProblems are what is reported.
  struct Waiting {
    std::string path;
    uint32_t begin = 0, end = 0;
    std::string text;
    ReprChain chain;
    bool text_problems = false;
  };
  void wait(Waiting w) { waiting_.push_back(std::move(w)); }
  const std::vector<Waiting> &waiting() const { return waiting_; }

private:
  std::map<std::string, ReprChain> chains_;
  std::map<std::string, std::vector<TextProblem>> problems_;
  std::set<std::string> seen_;
  std::vector<Waiting> waiting_;
};

} // namespace tracelint::analyzer
