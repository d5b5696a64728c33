// Generators: calling a function whose body holds a yield makes a generator; next() runs its
// body up to the next yield (Coroutine), `yield from` gives what another iterable gives, and a
// @contextlib.contextmanager function's generator is a `with` statement's context manager.
#include "generators.hpp"

#include "interpreter_impl.hpp"
#include "tracelint/tracer/interpreter.hpp"

namespace tracelint::tracer {

Coroutine::~Coroutine() {
  if (!started_) return;
  {
    std::unique_lock lock(mutex_);
    if (!finished_) {
      abandon_ = true;
      body_turn_ = true;
      turn_.notify_all();
    }
  }
  thread_.join();
  --*live_;
}

void Coroutine::run() {
  {
    std::unique_lock lock(mutex_);
    turn_.wait(lock, [&] { return body_turn_; });
  }
  try {
    body_();
  } catch (const GeneratorAbandoned &) {
  } catch (...) {
    error_ = std::current_exception();
  }
  std::unique_lock lock(mutex_);
  finished_ = true;
  body_turn_ = false;
  turn_.notify_all();
}

bool Coroutine::resume() {
  if (finished_) return false;
  {
    std::unique_lock lock(mutex_);
    body_turn_ = true;
    if (!started_) {
      thread_ = std::thread([this] { run(); });
      started_ = true;
      ++*live_;
    }
    turn_.notify_all();
    turn_.wait(lock, [&] { return !body_turn_; });
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  return !finished_;
}

void Coroutine::suspend(Obj value) {
  std::unique_lock lock(mutex_);
  value_ = std::move(value);
  body_turn_ = false;
  turn_.notify_all();
  turn_.wait(lock, [&] { return body_turn_; });
  if (abandon_) throw GeneratorAbandoned{};
}

GeneratorObj::~GeneratorObj() = default;

Obj Evaluator::make_generator(const FunctionObj &f, Frame &&bound) {
  auto g = std::make_shared<GeneratorObj>();
  g->qualname = f.qualname;
  g->module = f.module;
  auto frame = std::make_shared<Frame>(std::move(bound));
  frame->function = nullptr; // the function object may be gone while its generator lives
  const FunctionDef *def = f.def;
  g->body = std::make_unique<Coroutine>(
      [this, frame, def, keep = f.module] {
        Flow flow = run_block(def->body, *frame);
        for (std::size_t i = 0; def->rest && i < def->rest->size() && flow != Flow::Return; ++i)
          flow = run_block(def->rest->chunk(i), *frame);
      },
      in.state().live_generators);
  return Obj::heap(Obj::Kind::Generator, std::move(g));
}

std::optional<Obj> resume_generator(Interpreter &in, const Obj &generator, const Loc &loc) {
  GeneratorObj &g = generator.as<GeneratorObj>();
  InterpreterState &state = in.state();
  Evaluator &evaluator = in.evaluator();
  if (g.body->finished()) return std::nullopt;
  if (std::find(state.running_generators.begin(), state.running_generators.end(), g.body.get()) !=
      state.running_generators.end())
    raise(in, "ValueError", "generator already executing", loc);
  if (evaluator.depth >= in.budget().limits().max_depth)
    throw TraceError(loc, "calls nest deeper than " +
                              std::to_string(in.budget().limits().max_depth) +
                              " (recursion is not traced)");
  // Each started generator holds a thread until it ends or is dropped.
  constexpr int kMaxLiveGenerators = 256;
  if (!g.body->started() && *state.live_generators >= kMaxLiveGenerators)
    throw TraceError(loc, "more than " + std::to_string(kMaxLiveGenerators) +
                              " generators started and not finished at once: the tracer runs "
                              "each on a thread of its own");
  // The body runs as a call from here: on top of this thread's calls, while this one waits.
  const Module *caller =
      evaluator.call_modules.empty() ? state.module.get() : evaluator.call_modules.back();
  ++evaluator.depth;
  evaluator.call_modules.push_back(g.module.get());
  state.running_generators.push_back(g.body.get());
  auto leave = [&] {
    --evaluator.depth;
    evaluator.call_modules.pop_back();
    state.running_generators.pop_back();
  };
  auto note = [&](auto &e) {
    if (!e.file) e.file = g.module->path;
    e.chain.push_back("in `" + excerpt(g.qualname) + "` (a generator), resumed at " +
                      where_text(caller->path, loc));
  };
  bool yielded = false;
  try {
    yielded = g.body->resume();
  } catch (TraceError &e) {
    leave();
    note(e);
    throw;
  } catch (PyError &e) {
    leave();
    note(e);
    throw;
  } catch (...) {
    leave();
    throw;
  }
  leave();
  if (!yielded) return std::nullopt;
  return g.body->take_value();
}

Obj Evaluator::yield_value(Obj value, const Loc &loc) {
  if (in.state().running_generators.empty())
    throw TraceError(loc, "'yield' outside a running generator");
  in.state().running_generators.back()->suspend(std::move(value));
  return Obj::none(); // what next() sends; send() is not modelled
}

Obj Evaluator::yield_from(const Obj &iterable, const Loc &loc) {
  if (iterable.kind == Obj::Kind::Generator) {
    while (std::optional<Obj> v = resume_generator(in, iterable, loc))
      yield_value(std::move(*v), loc);
    return Obj::none();
  }
  for (Obj &v : iterate(in, iterable, loc))
    yield_value(std::move(v), loc);
  return Obj::none();
}

} // namespace tracelint::tracer
