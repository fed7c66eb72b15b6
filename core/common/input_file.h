// Reading a whole file or stream a user named (a scenario, a system file, stdin), bounded:
// a missing or unreadable file, a directory, or more than max_bytes is an InputError
// naming `label` (the path, or "stdin") -- never an I/O exception, never unbounded memory.
// The limits themselves are in common/limits.h.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>

namespace trnsim {

std::string read_input_file(const std::string& path, const std::string& label, std::size_t max_bytes);
std::string read_input_stream(std::istream& in, const std::string& label, std::size_t max_bytes);
// "16 MiB", "256 KiB", "1000 bytes": a limit as the messages state it.
std::string byte_size_text(std::size_t bytes);

}  // namespace trnsim
