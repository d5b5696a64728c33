// The model's own modules: `from .config import Config`, `from mingpt.utils import CfgNode`,
// `import helpers` read the sibling module or package from disk, where CPython would find it
// for the traced file (its folder, as sys.path[0], and the folder above its package), and run
// it with the same interpreter, once (a cycle meets the module partly run, as in CPython).
#include "interpreter_impl.hpp"
#include "tracelint/tracer/run.hpp"

#include <filesystem>
#include <fstream>

namespace tracelint::tracer {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> dotted_parts(const std::string &dotted) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  while (at <= dotted.size()) {
    std::size_t dot = dotted.find('.', at);
    if (dot == std::string::npos) dot = dotted.size();
    if (dot > at) parts.push_back(dotted.substr(at, dot - at));
    at = dot + 1;
  }
  return parts;
}

// base/a/b.py, or the package base/a/b/__init__.py; none when neither is there.
std::optional<fs::path> module_file(const fs::path &base, const std::vector<std::string> &parts) {
  std::error_code ec; // a folder that cannot be read holds no module
  if (parts.empty()) {
    fs::path init = base / "__init__.py";
    return fs::is_regular_file(init, ec) ? std::optional<fs::path>(init) : std::nullopt;
  }
  fs::path p = base;
  for (const std::string &part : parts)
    p /= part;
  fs::path file = p;
  file += ".py";
  if (fs::is_regular_file(file, ec)) return file;
  if (fs::is_regular_file(p / "__init__.py", ec)) return p / "__init__.py";
  return std::nullopt;
}

// Where `import x` looks: the traced file's folder, then the folder holding its top package.
std::vector<fs::path> import_roots(const std::string &traced) {
  std::error_code ec;
  fs::path dir = fs::path(traced).parent_path().lexically_normal();
  if (dir.empty()) dir = ".";
  std::vector<fs::path> roots = {dir};
  // Up while the folder is a package; relative as the traced file was named, where it can be.
  fs::path package = dir;
  while (fs::is_regular_file(package / "__init__.py", ec)) {
    fs::path up = package.parent_path();
    if (up.empty() || package == "." || package.filename() == "..")
      up = fs::absolute(package, ec).parent_path();
    if (up == package) break;
    package = up;
  }
  if (package != dir) roots.push_back(package);
  return roots;
}

// A module file is read whole, and refused past the traced file's cap (--max-file-size).
Result<std::string> read_module_text(const fs::path &file, std::uintmax_t max_bytes) {
  std::error_code ec;
  std::uintmax_t size = fs::file_size(file, ec);
  if (ec) return Error{"cannot read it: " + ec.message(), file.string(), 0, 0};
  if (size > max_bytes)
    return Error{"it is " + format_bytes(size) + ", over --max-file-size (" +
                     format_bytes(max_bytes) + "): the tracer does not read it",
                 file.string(), 0, 0};
  std::ifstream in(file, std::ios::binary);
  std::string text(static_cast<std::size_t>(size), '\0');
  if (!in.read(text.data(), static_cast<std::streamsize>(size)) ||
      in.gcount() != static_cast<std::streamsize>(size))
    return Error{"cannot read it", file.string(), 0, 0};
  return text;
}

} // namespace

std::shared_ptr<const Module> owner_of(Interpreter &in, const Module *m) {
  if (m == in.state().module.get()) return in.state().module;
  for (const std::shared_ptr<const Module> &local : in.state().local_sources)
    if (local.get() == m) return local;
  return in.state().nn_source;
}

std::vector<Obj> local_module(Interpreter &in, const std::string &dotted, std::size_t level,
                              Frame &frame, const Loc &loc) {
  std::vector<std::string> parts = dotted_parts(dotted);
  std::vector<fs::path> bases;
  if (level > 0) {
    // Relative to the importing module's package: its folder, one up per further dot.
    fs::path base =
        fs::path(frame.module ? frame.module->path : in.state().module->path).parent_path();
    if (base.empty()) base = ".";
    for (std::size_t i = 1; i < level; ++i)
      base = (base / "..").lexically_normal(); // ".." stays "..", "../.." past it
    bases.push_back(base);
  } else {
    bases = import_roots(in.state().module->path);
  }
  for (const fs::path &base : bases) {
    // import a.b.c runs a, then a.b, then a.b.c; each is an attribute of the one before.
    std::vector<Obj> chain;
    std::string name = std::string(level, '.');
    if (level > 0) {
      // The package itself (from . import x): its __init__.py, or a folder of modules.
      std::optional<fs::path> init = module_file(base, {});
      chain.push_back(init ? load_local(in, init->string(), name, frame, loc)
                           : namespace_module(in, base.string(), name));
    }
    for (std::size_t i = 1; i <= parts.size(); ++i) {
      std::vector<std::string> prefix(parts.begin(), parts.begin() + static_cast<long>(i));
      fs::path folder = base;
      for (const std::string &p : prefix)
        folder /= p;
      name += (name.empty() || name.back() == '.' ? "" : ".") + prefix.back();
      std::optional<fs::path> file = module_file(base, prefix);
      std::error_code ec;
      if (!file && !fs::is_directory(folder, ec)) {
        chain.clear();
        break;
      }
      Obj m = file ? load_local(in, file->string(), name, frame, loc)
                   : namespace_module(in, folder.string(), name);
      if (!chain.empty()) chain.back().as<ModuleObj>().globals->set(prefix.back(), m);
      chain.push_back(m);
    }
    if (!chain.empty()) return chain;
  }
  return {};
}

Obj namespace_module(Interpreter &in, const std::string &folder, const std::string &dotted) {
  std::error_code ec;
  std::string key = fs::weakly_canonical(folder, ec).string() + "/";
  if (auto seen = in.state().local_modules.find(key); seen != in.state().local_modules.end())
    return seen->second;
  auto m = std::make_shared<ModuleObj>();
  m->name = dotted;
  m->globals = std::make_shared<Env>();
  m->globals->set("__name__", Obj::str(dotted));
  Obj module = Obj::heap(Obj::Kind::Module, m);
  in.state().local_modules.emplace(key, module);
  return module;
}

Obj load_local(Interpreter &in, const std::string &file, const std::string &dotted,
               const Frame &importer, const Loc &loc) {
  std::error_code ec;
  std::string key = fs::weakly_canonical(file, ec).string();
  if (ec) key = file;
  if (auto seen = in.state().local_modules.find(key); seen != in.state().local_modules.end())
    return seen->second;
  std::string importer_path = importer.module ? importer.module->path : in.state().module->path;
  auto fail = [&](const std::string &why) {
    TraceError e(loc, "cannot import `" + dotted + "` from " + file + ": " + why);
    e.file = importer_path;
    throw e;
  };
  Result<std::string> text = read_module_text(file, in.budget().limits().max_module_bytes);
  if (!text) fail(text.error().message);
  Result<Module> parsed = parse_module(file, text.value());
  if (!parsed) {
    // Its syntax error, at its place in its file.
    TraceError e(Loc{parsed.error().line, parsed.error().column}, parsed.error().message);
    e.file = file;
    e.chain.push_back("in the module `" + dotted + "`, imported at " + importer_path + ":" +
                      std::to_string(loc.line) + ":" + std::to_string(loc.column));
    throw e;
  }
  auto source = std::make_shared<const Module>(std::move(parsed.value()));
  in.state().local_sources.push_back(source);
  auto m = std::make_shared<ModuleObj>();
  m->name = dotted;
  m->globals = std::make_shared<Env>();
  std::string name = fs::path(file).filename() == "__init__.py"
                         ? fs::path(file).parent_path().filename().string()
                         : fs::path(file).stem().string();
  m->globals->set("__name__", Obj::str(dotted.empty() || dotted[0] == '.' ? name : dotted));
  m->globals->set("__file__", Obj::str(file));
  Obj module = Obj::heap(Obj::Kind::Module, m);
  // Registered before it runs: a module that imports it back meets it partly run.
  in.state().local_modules.emplace(key, module);
  Frame frame;
  frame.locals = frame.globals = m->globals;
  frame.module = source.get();
  frame.is_module = true;
  auto note = [&](auto &e) {
    if (!e.file) e.file = file;
    e.chain.push_back("in the module `" + dotted + "`, imported at " + importer_path + ":" +
                      std::to_string(loc.line) + ":" + std::to_string(loc.column));
  };
  in.evaluator().call_modules.push_back(source.get());
  try {
    in.evaluator().run_block(source->body, frame);
  } catch (TraceError &e) {
    in.evaluator().call_modules.pop_back();
    note(e);
    throw;
  } catch (PyError &e) {
    in.evaluator().call_modules.pop_back();
    note(e);
    throw;
  }
  in.evaluator().call_modules.pop_back();
  return module;
}

void do_import(Interpreter &in, const Stmt &s, Frame &frame) {
  // A provided module (torch, math, ...), else one of the model's own files, else a module the
  // tracer cannot read: an error where something of it is used.
  auto module_object = [&](const std::string &dotted) -> Obj {
    if (std::optional<Obj> m = provided_module(in, dotted)) return *m;
    return unreadable_module(dotted, "module " + dotted, s.loc);
  };
  if (s.kind == Stmt::Kind::Import) {
    for (const ImportName &n : s.names) {
      std::string top = n.name.substr(0, n.name.find('.'));
      if (!provided_module(in, top)) {
        std::vector<Obj> chain = local_module(in, n.name, 0, frame, s.loc);
        if (!chain.empty()) {
          // import a.b binds a; import a.b as c binds a.b.
          in.evaluator().bind_name(n.alias.empty() ? top : n.alias,
                                   n.alias.empty() ? chain.front() : chain.back(), frame);
          continue;
        }
      }
      if (!n.alias.empty()) {
        in.evaluator().bind_name(n.alias, module_object(n.name), frame);
      } else {
        // import a.b binds a (which must then have b).
        in.evaluator().bind_name(top, module_object(top), frame);
      }
    }
    return;
  }
  std::size_t level = s.text.find_first_not_of('.');
  if (level == std::string::npos) level = s.text.size();
  std::string dotted = s.text.substr(level);
  if (level > 0 || !provided_module(in, dotted.substr(0, dotted.find('.')))) {
    std::vector<Obj> chain = local_module(in, dotted, level, frame, s.loc);
    if (!chain.empty()) return import_names(in, chain.back(), dotted, level, s, frame);
    if (level > 0)
      raise(in, "ModuleNotFoundError",
            "no module named '" + s.text + "' beside " + (frame.module ? frame.module->path : ""),
            s.loc);
  }
  Obj module = module_object(s.text);
  for (const ImportName &n : s.names) {
    if (n.name == "*") {
      if (module.kind != Obj::Kind::Module) continue;
      continue; // a star import of a provided module: its names are reached through it
    }
    Obj value;
    if (std::optional<Obj> sub = provided_module(in, s.text + "." + n.name)) {
      value = *sub;
    } else if (module.kind == Obj::Kind::Unknown) {
      value = derived_unknown(module, s.text + "." + n.name, s.loc);
    } else {
      std::optional<Obj> found = find_attribute(in, module, n.name, s.loc);
      if (!found)
        raise(in, "ImportError", "cannot import name '" + n.name + "' from '" + s.text + "'",
              s.loc);
      value = *found;
    }
    in.evaluator().bind_name(n.alias.empty() ? n.name : n.alias, std::move(value), frame);
  }
}

// from <one of the model's modules> import names: its attributes, or its submodules.
void import_names(Interpreter &in, const Obj &module, const std::string &dotted, std::size_t level,
                  const Stmt &s, Frame &frame) {
  const ModuleObj &m = module.as<ModuleObj>();
  for (const ImportName &n : s.names) {
    if (n.name == "*") {
      for (const auto &[name, value] : std::vector(m.globals->vars))
        if (!name.starts_with("_")) in.evaluator().bind_name(name, value, frame);
      continue;
    }
    Obj value;
    if (Obj *v = m.globals->find(n.name)) {
      value = *v;
    } else {
      std::vector<Obj> sub =
          local_module(in, dotted.empty() ? n.name : dotted + "." + n.name, level, frame, s.loc);
      if (sub.empty())
        raise(in, "ImportError", "cannot import name '" + n.name + "' from '" + s.text + "'",
              s.loc);
      value = sub.back();
    }
    in.evaluator().bind_name(n.alias.empty() ? n.name : n.alias, std::move(value), frame);
  }
}

} // namespace tracelint::tracer
