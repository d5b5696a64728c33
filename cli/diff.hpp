#pragma once
#include <string>

// A unified diff (3 lines of context) between two versions of a file.
std::string unified_diff(const std::string &path, const std::string &before,
                         const std::string &after);
