// How a ConSeq prediction reads in the localization report (localize/predict.h).
#include <catch2/catch.hpp>

#include "localize/predict.h"

using namespace ctrlsched::driver;

TEST_CASE("prediction text: a run with no failing thread says why nothing was predicted", "[predict]") {
  Prediction deadlock;
  deadlock.handle = "1:surw:e10.7.6@56d7d8fe7ed76674";
  deadlock.run_failed = true;
  deadlock.problem = "the run failed without a single failing thread";
  // Not "predicted orders from failing run ... (; 0 critical reads): 0" and a note.
  CHECK(render_prediction(deadlock) ==
        "ConSeq: no prediction from the failing run 1:surw:e10.7.6@56d7d8fe7ed76674: the run failed without a "
        "single failing thread\n");

  Prediction searched;
  searched.handle = "5:pct@aa";
  searched.run_failed = true;
  searched.selection = "failing thread T0";
  searched.critical_reads = 4;
  searched.problem = "the trace is truncated";
  CHECK(render_prediction(searched) ==
        "predicted orders from failing run 5:pct@aa (failing thread T0; 4 critical reads): 0\n"
        "  note: the trace is truncated\n");
}
