#include "suggest.hpp"

#include "tracelint/core/escape.hpp"
#include "tracelint/validator/options.hpp"

#include <algorithm>
#include <cctype>

namespace tracelint::cli {

namespace {

std::string suggestion(std::string_view word, const std::vector<std::string> &candidates) {
  std::optional<std::string> close = did_you_mean(word, candidates);
  return close ? " (did you mean " + *close + "?)" : "";
}

std::vector<std::string> subcommand_names(const CLI::App &app) {
  std::vector<std::string> names;
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

// Every spelling of the options of app and of its parents ("--select", "-q", "--help").
std::vector<std::string> option_names(const CLI::App &app) {
  std::vector<std::string> names;
  for (const CLI::App *at = &app; at; at = at->get_parent())
    for (const CLI::Option *option : at->get_options()) {
      for (const std::string &name : option->get_lnames())
        names.push_back("--" + name);
      for (const std::string &name : option->get_snames())
        names.push_back("-" + name);
    }
  return names;
}

} // namespace

std::optional<std::string> unknown_command(const CLI::App &app,
                                           const std::vector<std::string> &args) {
  if (args.empty() || args[0].empty() || args[0][0] == '-') return std::nullopt;
  std::vector<std::string> names = subcommand_names(app);
  if (std::find(names.begin(), names.end(), args[0]) != names.end()) return std::nullopt;
  std::string listed;
  for (const std::string &name : names)
    listed += (listed.empty() ? "" : ", ") + name;
  return "unknown command '" + printable(args[0]) + "'" + suggestion(args[0], names) +
         "; the commands are " + listed + " (`tracelint --help` says what each does)";
}

std::optional<std::string> unknown_options(const CLI::App &app,
                                           const std::vector<std::string> &args) {
  const CLI::App *in_use = &app;
  if (!args.empty())
    for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
      if (sub->get_name() == args[0]) in_use = sub;
  std::vector<std::string> known = option_names(*in_use);
  std::string command = in_use == &app ? "tracelint" : "tracelint " + in_use->get_name();
  std::string message;
  for (const std::string &arg : args) {
    if (arg == "--") break; // what follows is a path, whatever it looks like
    if (arg.size() < 2 || arg[0] != '-' || arg == "-") continue;
    // "--select=TL003": the name is before '='; "-j4": a short option's value follows it.
    std::string name = arg.substr(0, arg.find('='));
    if (name[1] != '-') name = name.substr(0, 2);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    // A negative number is a value, not an option.
    if (std::isdigit(static_cast<unsigned char>(name[1]))) continue;
    message += (message.empty() ? "" : "\n") + command + ": unknown option '" + printable(name) +
               "'" + suggestion(name, known);
  }
  if (message.empty()) return std::nullopt;
  return message + "\n(`" + command + " --help` lists the options)";
}

} // namespace tracelint::cli
