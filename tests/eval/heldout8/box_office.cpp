// ctrlsched-truth: class=atomicity fails=assertion
// ctrlsched-truth: cause g_seats_sold R1@20 R2@20 W1@21 W2@21
// ctrlsched-truth: cause g_seats_sold R1@20 R2@20 W2@21 W1@21
//
// box_office.cpp - two ticket counters sell the seats of one show at once.
// Bug: sell_seat() checks "sold out?" with one atomic load and then takes a
// seat with a separate fetch_add.  When one seat is left, both counters can
// pass the check and both take a seat, so one of them gets seat number kSeats
// and trips the assertion.  Only the sale of the last seat can go wrong, which
// is several iterations into each counter's loop, never the first.
#include <atomic>
#include <cassert>
#include <thread>

constexpr int kSeats = 12;
std::atomic<int> g_seats_sold{0};
int g_seat_owner[kSeats];

bool sell_seat(int counter_id) {
  if (g_seats_sold.load() >= kSeats) return false;  // sold out
  int seat = g_seats_sold.fetch_add(1);
  assert(seat < kSeats && "sold a seat that does not exist");
  g_seat_owner[seat] = counter_id;
  return true;
}

void ticket_counter(int counter_id, int customers, int* sold) {
  for (int i = 0; i < customers; ++i)
    if (sell_seat(counter_id)) ++*sold;
}

int main() {
  int sold[2] = {0, 0};
  std::thread a(ticket_counter, 1, 8, &sold[0]);
  std::thread b(ticket_counter, 2, 8, &sold[1]);
  a.join();
  b.join();
  assert(sold[0] + sold[1] == kSeats && "seat count does not add up");
  for (int seat = 0; seat < kSeats; ++seat) assert(g_seat_owner[seat] != 0);
  return 0;
}
