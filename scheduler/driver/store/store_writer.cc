// Writing a seeds run into the run store (see store_writer.h).
#include "store/store_writer.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "exit_codes.h"
#include "store/run_codec.h"

namespace ctrlsched::driver {
namespace {

using StoreJson = nlohmann::json;

std::string modules_json(const RecordNames& names) {
  StoreJson modules = StoreJson::array();
  for (const RecordNames::Module& m : names.modules()) modules.push_back(StoreJson::array({m.path, m.bias, m.size}));
  return modules.dump();
}

// A portfolio's calibration (runs/portfolio.h): what every stored seed's spec is resolved from.
StoreJson stored_profile_json(const RunProfile& profile) {
  return StoreJson{{"pct_steps", profile.steps}, {"surw_events", profile.events}, {"instrumented", profile.instrumented}};
}

RunProfile stored_profile_from(const StoreJson& j) {
  RunProfile profile;
  profile.steps = j.at("pct_steps").get<std::uint64_t>();
  profile.events = j.at("surw_events").get<std::vector<std::uint32_t>>();
  profile.instrumented = j.at("instrumented").get<bool>();
  return profile;
}

}  // namespace

std::string encode_header(const ReportHeader& h) {
  StoreJson j;
  j["seed_start"] = h.seed_start;
  j["seeds_requested"] = h.seeds_requested;
  j["spec"] = StoreJson::parse(encode_spec(h.spec));
  j["pct_steps_calibrated"] = h.pct_steps_calibrated;
  if (h.portfolio) {
    j["portfolio"] = {{"calibrated", stored_profile_json(h.portfolio->profile)},
                      {"sync", h.portfolio->sync ? stored_profile_json(*h.portfolio->sync) : StoreJson(nullptr)}};
  }
  j["jobs"] = h.jobs;
  j["target"] = h.test.target;
  j["args"] = h.test.args;
  j["replay_options"] = h.test.replay_options;
  return j.dump();
}

ReportHeader decode_header(const std::string& text) {
  ReportHeader h;
  const StoreJson j = StoreJson::parse(text, nullptr, false);
  try {
    if (j.is_discarded()) throw StoreJson::other_error::create(0, "not JSON", nullptr);
    h.seed_start = j.at("seed_start").get<std::uint64_t>();
    h.seeds_requested = j.at("seeds_requested").get<std::uint64_t>();
    h.spec = decode_spec(j.at("spec").dump());
    h.pct_steps_calibrated = j.at("pct_steps_calibrated").get<bool>();
    if (j.contains("portfolio")) {
      Portfolio portfolio;
      portfolio.base = h.spec;
      portfolio.profile = stored_profile_from(j.at("portfolio").at("calibrated"));
      if (const StoreJson& sync = j.at("portfolio").at("sync"); !sync.is_null()) portfolio.sync = stored_profile_from(sync);
      h.portfolio = std::move(portfolio);
    }
    h.jobs = j.at("jobs").get<unsigned>();
    h.test.target = j.at("target").get<std::string>();
    h.test.args = j.at("args").get<std::vector<std::string>>();
    h.test.replay_options = j.at("replay_options").get<std::vector<std::string>>();
  } catch (const StoreJson::exception&) {
    throw DriverError(ExitCode::BadStore, "the store holds a corrupt invocation header");
  }
  return h;
}

StoreWriter::StoreWriter(const std::string& path, const std::string& binary, const ReportHeader& header)
    : path_(path), store_(path) {
  const BinaryIdentity identity = identify_binary(binary);
  generation_ = store_.enter_generation(identity);
  if (generation_.created && generation_.earlier_generations > 0) {
    std::fprintf(stderr,
                 "ctrlsched: note: store %s: %s is a new build (%s); its runs start generation %lld, the "
                 "earlier builds' runs are kept apart\n",
                 path.c_str(), binary.c_str(),
                 identity.build_id.empty() ? "size or mtime changed" : ("build-id " + identity.build_id.substr(0, 12)).c_str(),
                 static_cast<long long>(generation_.id));
  }
  invocation_ = store_.begin_invocation(generation_.id, encode_header(header));
}

void StoreWriter::add(std::uint64_t index, const RunResult& result, const RunSpec& spec, const LocalizationData* data) {
  StoredRun row;
  row.seed = result.seed;
  row.strategy = strategy_text(spec);
  row.spec = encode_spec(spec);
  row.outcome = std::string(to_string(result.kind));
  row.signature = result.failure ? result.failure->signature : std::string();
  row.schedule_hash = format_hash(result.schedule_hash);
  row.result = encode_run_result(result);
  if (data != nullptr) {
    row.instrumented = data->instrumented();
    const auto i = static_cast<std::size_t>(index);
    if (i < data->falcon().size() && data->falcon()[i]) row.falcon = encode_falcon_run(*data->falcon()[i]);
    if (i < data->spectra().size() && data->spectra()[i]) row.spectra = encode_spectra_run(*data->spectra()[i]);
    if (!modules_written_ && data->names()) {
      store_.set_modules(generation_.id, modules_json(*data->names()));
      modules_written_ = true;
    }
  }
  store_.add(generation_.id, invocation_, row);
}

}  // namespace ctrlsched::driver
