// Errors the core reports to its callers. InputError is for anything a user wrote
// (a scenario, a link, a data file, a model config, a CLI argument): its message
// names the field (a JSON path such as "workload.batch") and the problem. The CLI
// maps it to exit code 2, the playground to a visible message. Any other exception
// escaping the core is a bug (exit code 1).
#pragma once
#include <stdexcept>
#include <string>

namespace trnsim {

class InputError : public std::runtime_error {
 public:
  InputError(std::string field, const std::string& problem)
      : std::runtime_error(field.empty() ? problem : field + ": " + problem),
        field_(std::move(field)),
        problem_(problem) {}
  const std::string& field() const { return field_; }
  const std::string& problem() const { return problem_; }  // the message without the field

 private:
  std::string field_;
  std::string problem_;
};

}  // namespace trnsim
