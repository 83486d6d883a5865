// ctrlsched-truth: class=deadlock fails=deadlock
// ctrlsched-truth: cause g_thermostat,g_display lock1@61:g_thermostat lock2@36:g_display lock2@55:g_thermostat lock1@32:g_display
// observer_deadlock.cpp - a thermostat notifies its displays while holding its own lock; a
// display detaches itself from the thermostat while holding the display's lock.
//
// set() takes the thermostat lock and then (in on_change) each display's lock; close() takes
// the display lock and then (in detach) the thermostat lock: a lock-order inversion through a
// callback. A temperature change racing with a display closing deadlocks.
#include <cstdio>
#include <mutex>
#include <thread>

class Display;

class Thermostat {
 public:
  void attach(Display* d);
  void detach(Display* d);
  void set(int celsius);

 private:
  std::mutex mutex_;
  Display* displays_[4] = {};
  int count_ = 0;
  int celsius_ = 20;
};

class Display {
 public:
  explicit Display(Thermostat& t) : thermostat_(t) {}
  void on_change(int celsius) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (!closed_) shown_ = celsius;
  }
  void close() {
    std::lock_guard<std::mutex> guard(mutex_);
    closed_ = true;
    thermostat_.detach(this);
  }
  int shown() const { return shown_; }

 private:
  Thermostat& thermostat_;
  std::mutex mutex_;
  bool closed_ = false;
  int shown_ = 0;
};

void Thermostat::attach(Display* d) {
  std::lock_guard<std::mutex> guard(mutex_);
  displays_[count_++] = d;
}

void Thermostat::detach(Display* d) {
  std::lock_guard<std::mutex> guard(mutex_);
  for (int i = 0; i < count_; i++)
    if (displays_[i] == d) displays_[i] = displays_[--count_];
}

void Thermostat::set(int celsius) {
  std::lock_guard<std::mutex> guard(mutex_);
  celsius_ = celsius;
  for (int i = 0; i < count_; i++) displays_[i]->on_change(celsius);
}

Thermostat g_thermostat;
Display g_display(g_thermostat);

int main() {
  g_thermostat.attach(&g_display);
  std::thread user([] { g_thermostat.set(23); });
  std::thread ui([] { g_display.close(); });
  user.join();
  ui.join();
  std::printf("display shows %d\n", g_display.shown());
  return 0;
}
