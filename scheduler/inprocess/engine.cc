// The in-process engine (see engine.h). Scheduling logic follows shim/engine.cc; comments there
// explain the rules (timed waits as candidates, leases, when the strategy is asked).
//
// Teardown: when a run ends (failure, or the body returned), every fiber that started and did
// not finish is resumed once more with tearing_down_ set. Blocking operations then throw
// FiberUnwind (so destructors on its stack run), operations that usually sit in destructors
// (unlock, notify, release) just return and the fiber carries on to its next blocking operation;
// after kMaxTeardownCalls such calls it is unwound anyway. A fiber that stopped inside assert()
// (a noexcept frame) is never resumed: its stack is parked, not unwound.
#include "engine.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <cstdio>
#include <exception>
#include <typeinfo>

#include <cxxabi.h>

#include "ctrlsched/hook_dispatch.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define CTRLSCHED_ASAN_FIBERS 1
#else
#define CTRLSCHED_ASAN_FIBERS 0
#endif

namespace ctrlsched::detail {

// initial-exec: the library is linked, not dlopen'ed, and a dynamic TLS lookup per primitive
// operation was a tenth of a switch's cost.
thread_local Engine* tls_engine __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local std::uint64_t tls_run_epoch __attribute__((tls_model("initial-exec"))) = 0;

namespace {

constexpr std::uint32_t kMaxTeardownCalls = 10'000;

// Fiber stacks: mmap'd with a guard page, recycled through a free list, so a run costs no
// system call once the pool is warm.
class StackPool {
 public:
  explicit StackPool(std::size_t size) : size_(size) {}
  boost::context::stack_context allocate() {
    void* base = nullptr;
    if (!free_[size_].empty()) {
      base = free_[size_].back();
      free_[size_].pop_back();
    } else {
      const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
      base = mmap(nullptr, size_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      mprotect(base, page, PROT_NONE);
    }
    boost::context::stack_context sc;
    sc.size = size_;
    sc.sp = static_cast<char*>(base) + page_size() + size_;
    return sc;
  }
  void deallocate(boost::context::stack_context& sc) noexcept {
    void* base = static_cast<char*>(sc.sp) - sc.size - page_size();
    free_[sc.size].push_back(base);
  }

 private:
  static std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }
  std::size_t size_;
  // Per OS thread; a few sizes at most.
  static thread_local std::vector<std::pair<std::size_t, std::vector<void*>>> pools_;
  struct FreeLists {
    std::vector<void*>& operator[](std::size_t size) {
      for (auto& [s, list] : pools_)
        if (s == size) return list;
      pools_.emplace_back(size, std::vector<void*>{});
      return pools_.back().second;
    }
  } free_;
};
thread_local std::vector<std::pair<std::size_t, std::vector<void*>>> StackPool::pools_;

// Fibers left inside assert(): kept reachable, never resumed (their frames cannot unwind).
std::vector<boost::context::fiber>& parked_fibers() {
  static auto* parked = new std::vector<boost::context::fiber>();
  return *parked;
}

std::string demangle(const char* name) {
  int status = 0;
  char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string result = status == 0 && text ? text : name;
  std::free(text);
  return result;
}

std::string describe_current_exception() {
  try {
    throw;
  } catch (const std::exception& e) {
    return demangle(typeid(e).name()) + ": " + e.what();
  } catch (...) {
    const std::type_info* type = abi::__cxa_current_exception_type();
    return type ? demangle(type->name()) : std::string("unknown exception");
  }
}

const char* wait_name(WaitKind kind) {
  switch (kind) {
    case WaitKind::Join: return "join";
    case WaitKind::Mutex: return "mutex";
    case WaitKind::SharedRead: return "shared_mutex (shared)";
    case WaitKind::SharedWrite: return "shared_mutex";
    case WaitKind::Cond: return "condition_variable";
    case WaitKind::Semaphore: return "semaphore";
    case WaitKind::Barrier: return "barrier";
    case WaitKind::None: break;
  }
  return "nothing";
}

void queue_push(WaitQueue& q, FiberThread* t) {
  t->next_waiter = nullptr;
  if (q.tail) q.tail->next_waiter = t;
  else q.head = t;
  q.tail = t;
  ++q.size;
}

FiberThread* queue_pop(WaitQueue& q) {
  FiberThread* t = q.head;
  if (!t) return nullptr;
  q.head = t->next_waiter;
  if (!q.head) q.tail = nullptr;
  t->next_waiter = nullptr;
  --q.size;
  return t;
}

void queue_remove(WaitQueue& q, FiberThread* t) {
  FiberThread* prev = nullptr;
  for (FiberThread* it = q.head; it; prev = it, it = it->next_waiter) {
    if (it != t) continue;
    if (prev) prev->next_waiter = it->next_waiter;
    else q.head = it->next_waiter;
    if (q.tail == it) q.tail = prev;
    it->next_waiter = nullptr;
    --q.size;
    return;
  }
}

void on_hooked_access(std::uintptr_t address, unsigned, int, std::uintptr_t) {
  Engine* e = tls_engine;
  if (e == nullptr || !e->accesses_are_points()) return;
  e->access(address, /*releasing=*/true);
}

constexpr ctrlsched_hook_dispatch kDispatch{&on_hooked_access, &on_hooked_access};

// Counts the OS threads inside a run; the pointer is set while the count is positive.
void set_exploring(int delta) {
  static std::mutex lock;
  static int exploring = 0;
  std::lock_guard<std::mutex> guard(lock);
  exploring += delta;
  __atomic_store_n(&ctrlsched_hooks_dispatch, exploring > 0 ? &kDispatch : nullptr, __ATOMIC_RELEASE);
}

}  // namespace

Engine::Engine(const RunSpec& spec, std::size_t stack_size,
               const std::function<std::optional<std::string>()>* probe)
    : spec_(spec), stack_size_(stack_size), probe_(probe), base_(make_strategy(spec)),
      recorder_(*base_, sink_) {
  candidates_.resize(16);
  waiter_ids_.reserve(64);
  sink_.decisions.reserve(256);
}

Engine::~Engine() = default;

FiberThread* Engine::new_thread(std::function<void()> fn) {
  auto t = std::make_unique<FiberThread>();
  t->id = static_cast<ThreadId>(threads_.size());
  t->fn = std::move(fn);
  FiberThread* raw = t.get();
  StackPool pool(stack_size_);
  boost::context::stack_context sc = pool.allocate();
  raw->stack_lo = reinterpret_cast<std::uintptr_t>(sc.sp) - sc.size;
  raw->stack_size = sc.size;
  raw->asan_lo = raw->stack_lo;
  raw->asan_size = sc.size;
  raw->ctx = boost::context::fiber(
      std::allocator_arg, boost::context::preallocated(sc.sp, sc.size, sc), pool,
      [this, raw](boost::context::fiber&& from) { return entry(raw, std::move(from)); });
  threads_.push_back(std::move(t));
  live_.push_back(raw->id);
  return raw;
}

boost::context::fiber Engine::entry(FiberThread* t, boost::context::fiber&& from) {
  arrived(nullptr);
  if (from_slot_) *from_slot_ = std::move(from);
  from_slot_ = nullptr;
  t->started = true;
  if (!tearing_down_) {
    try {
      t->fn();
      t->fn = nullptr;  // captured state dies while the thread is still controlled
    } catch (const FiberUnwind&) {
    } catch (...) {
      // A test framework's fatal assertion throws its own exception type: its probe names the
      // failure better than the exception does.
      if (!tearing_down_ && !probe_failed())
        note(FailureKind::Exception,
             "T" + std::to_string(t->id) + ": exception escaped: " + describe_current_exception());
    }
  }
  return finish(t);
}

boost::context::fiber Engine::finish(FiberThread* t) {
  from_slot_ = nullptr;  // this fiber is finished: nobody stores its continuation
  // The body (T0) returning ends the run, as main() returning ends a process.
  if (tearing_down_ || failed_ || pending_ || probe_failed() || t->id == 0) {
    t->state = ThreadState::Exited;
    return exit_to(nullptr);
  }
  // Mirrors shim exit_thread.
  ++state_version_;
  t->state = ThreadState::Exited;
  --runnable_;
  remove_live(t->id);
  while (FiberThread* joiner = queue_pop(t->joiners)) wake(joiner);
  if (++steps_ > spec_.max_steps) {
    note(FailureKind::Hang, hang_message());
    return exit_to(nullptr);
  }
  FiberThread* next = choose_next(PointKind::ThreadExit);
  if (next == nullptr) {
    note(FailureKind::Deadlock, deadlock_message());
    return exit_to(nullptr);
  }
  return exit_to(next);
}

boost::context::fiber Engine::exit_to(FiberThread* next) {
  announce_switch(next, nullptr);
  if (next == nullptr) return std::move(main_ctx_);
  current_ = next;
  return std::move(next->ctx);
}

bool Engine::probe_failed() {
  if (probe_ == nullptr || !*probe_) return false;
  if (std::optional<std::string> message = (*probe_)()) {
    note(FailureKind::Check, std::move(*message));
    return true;
  }
  return false;
}

// AddressSanitizer must be told about every stack switch (else it reports false
// stack-use-after-scope errors when an exception unwinds a fiber).
// `save` keeps the suspended side's fake stack (nullptr: that side is finishing).
void Engine::announce_switch(const FiberThread* to, void** save) {
#if CTRLSCHED_ASAN_FIBERS
  const void* bottom = to ? reinterpret_cast<const void*>(to->asan_lo) : main_stack_lo_;
  const std::size_t size = to ? to->asan_size : main_stack_size_;
  __sanitizer_start_switch_fiber(save, bottom, size);
#else
  (void)to;
  (void)save;
#endif
}

void Engine::arrived(void* saved) {
#if CTRLSCHED_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(saved, nullptr, nullptr);
#else
  (void)saved;
#endif
}

void Engine::jump(boost::context::fiber& target, boost::context::fiber* my_slot) {
  from_slot_ = my_slot;
  void* fake_stack = nullptr;
  announce_switch(&target == &main_ctx_ ? nullptr : current_, &fake_stack);
  boost::context::fiber incoming = std::move(target).resume();
  arrived(fake_stack);
  if (from_slot_) *from_slot_ = std::move(incoming);
  from_slot_ = nullptr;
}

bool Engine::enter(bool releasing) {
  if (!tearing_down_) {
    if (pending_ && !releasing) fail(kind_, message_);
    return true;
  }
  if (current_ == nullptr) return false;
  if (!releasing && std::uncaught_exceptions() == 0) throw FiberUnwind{};
  if (++current_->teardown_calls > kMaxTeardownCalls && std::uncaught_exceptions() == 0)
    throw FiberUnwind{};
  return false;
}

void Engine::after_resume(bool releasing) {
  if (tearing_down_) enter(releasing);
}

void Engine::switch_to(FiberThread* next, bool releasing) {
  FiberThread* me = current_;
  current_ = next;
  jump(next->ctx, &me->ctx);
  current_ = me;
  after_resume(releasing);
}

bool Engine::count_step(bool releasing) {
  if (__builtin_expect(++steps_ > spec_.max_steps, 0)) {
    if (releasing) {
      note(FailureKind::Hang, hang_message());
      return false;
    }
    fail(FailureKind::Hang, hang_message());
  }
  return true;
}

bool Engine::leased(const FiberThread* t, std::uint64_t step) const {
  return t == lease_holder_ && step <= lease_end_ && state_version_ == lease_version_;
}

void Engine::point(PointKind kind, bool releasing) {
  if (!count_step(releasing)) return;
  if (runnable_ == 1 && timed_blocked_ == 0) return;
  if (kind != PointKind::Yield && leased(current_, steps_)) return;
  FiberThread* next = choose_next(kind);
  if (next == current_ || next == nullptr) return;
  switch_to(next, releasing);
}

void Engine::access(std::uintptr_t address, bool releasing) {
  if (tearing_down_ || current_ == nullptr) return;
  if (address - current_->stack_lo < current_->stack_size) return;  // its own stack
  if (pending_ && !releasing) fail(kind_, message_);
  point(PointKind::Access, releasing);
}

FiberThread* Engine::choose_next(PointKind kind) {
  if (candidates_.size() < live_.size()) candidates_.resize(live_.size() * 2);
  std::size_t n = 0;
  for (ThreadId id : live_) {
    const FiberThread* t = threads_[id].get();
    if (t->state == ThreadState::Runnable) candidates_[n++] = Candidate{t->id, false};
    else if (t->state == ThreadState::Blocked && t->timed_wait) candidates_[n++] = Candidate{t->id, true};
  }
  if (n == 0) return nullptr;
  FiberThread* me = current_;
  SchedulingPoint p{me->id, me->state == ThreadState::Runnable, kind, steps_,
                    std::span<const Candidate>(candidates_.data(), n)};
  ThreadId chosen = recorder_.next_thread(p);
  if (chosen == me->id && p.current_enabled && kind != PointKind::Yield && n > 1) {
    if (std::uint32_t lease = recorder_.lease(p)) {
      lease_holder_ = me;
      lease_end_ = steps_ + lease;
      lease_version_ = state_version_;
    }
  }
  FiberThread* next = threads_[chosen].get();
  if (next->state == ThreadState::Blocked) fire_timeout(next);
  return next;
}

void Engine::make_runnable(FiberThread* t) {
  ++state_version_;
  if (t->timed_wait) --timed_blocked_;
  t->timed_wait = false;
  t->state = ThreadState::Runnable;
  t->wait_kind = WaitKind::None;
  t->wait_model = nullptr;
  t->join_target = nullptr;
  ++runnable_;
}

void Engine::wake(FiberThread* t) {
  t->timed_out = false;
  make_runnable(t);
}

void Engine::fire_timeout(FiberThread* t) {
  WaitQueue* queue = t->join_target ? &t->join_target->joiners
                                    : (t->wait_model ? &t->wait_model->waiters : nullptr);
  if (queue) queue_remove(*queue, t);
  make_runnable(t);
  t->timed_out = true;
  virtual_now_ = std::max(virtual_now_, t->deadline);
}

void Engine::remove_live(ThreadId id) {
  live_.erase(std::find(live_.begin(), live_.end(), id));
}

bool Engine::block(ModelBase& m, WaitKind kind, bool timed, std::uint64_t deadline) {
  return block_on(m.waiters, &m, kind, timed, deadline);
}

bool Engine::block_on(WaitQueue& queue, ModelBase* model, WaitKind kind, bool timed,
                      std::uint64_t deadline) {
  FiberThread* me = current_;
  me->deadline = deadline;
  ++state_version_;
  me->state = ThreadState::Blocked;
  me->wait_kind = kind;
  me->wait_model = model;
  me->timed_wait = timed;
  me->timed_out = false;
  queue_push(queue, me);
  --runnable_;
  if (timed) ++timed_blocked_;
  count_step(false);
  FiberThread* next = choose_next(PointKind::Blocked);
  if (next == nullptr) fail(FailureKind::Deadlock, deadlock_message());
  if (next != me) switch_to(next, false);
  return me->timed_out;
}

bool Engine::wake_one(ModelBase& m, WakeKind kind) {
  WaitQueue& q = m.waiters;
  if (q.empty()) return false;
  FiberThread* chosen = q.head;
  if (q.size > 1) {
    waiter_ids_.clear();
    for (FiberThread* t = q.head; t; t = t->next_waiter) waiter_ids_.push_back(t->id);
    std::size_t index = recorder_.pick_waiter(kind, std::span<const ThreadId>(waiter_ids_));
    for (std::size_t i = 0; i < index; ++i) chosen = chosen->next_waiter;
  }
  queue_remove(q, chosen);
  wake(chosen);
  return true;
}

void Engine::wake_all(ModelBase& m) {
  while (FiberThread* t = queue_pop(m.waiters)) wake(t);
}

FiberThread* Engine::spawn(std::function<void()> fn) {
  // Mirrors shim thread_create: Sync point, create, Create point.
  point(PointKind::Sync, false);
  if (threads_.size() >= kMaxThreads) fail(FailureKind::Misuse, "more than 1024 threads in one run");
  FiberThread* me = current_;
  FiberThread* child = new_thread(std::move(fn));
  me->stack_size = 0;  // the creator may hand the child pointers into its stack
  ++state_version_;
  ++runnable_;
  recorder_.on_thread_created(child->id, me->id);
  point(PointKind::Create, false);
  return child;
}

void Engine::join(FiberThread* target) {
  FiberThread* me = current_;
  if (target == me) fail(FailureKind::Misuse, "T" + std::to_string(me->id) + " joins itself");
  while (target->state != ThreadState::Exited) {
    me->join_target = target;
    block_on(target->joiners, nullptr, WaitKind::Join, false, 0);
  }
  target->joined = true;
}

void Engine::detach(FiberThread* target) { target->detached = true; }

void Engine::note(FailureKind kind, std::string message) {
  if (failed_ || pending_) return;
  pending_ = true;
  kind_ = kind;
  message_ = std::move(message);
}

void Engine::fail(FailureKind kind, std::string message) {
  note(kind, std::move(message));
  failed_ = true;
  FiberThread* me = current_;
  jump(main_ctx_, &me->ctx);
  // Resumed only to be torn down.
  throw FiberUnwind{};
}

void Engine::abandon_for_assert(std::string message) {
  note(FailureKind::Assertion, std::move(message));
  failed_ = true;
  FiberThread* me = current_;
  me->abandoned = true;
  jump(main_ctx_, &me->ctx);
  std::abort();  // never resumed
}

bool Engine::first_use(ModelBase& m) {
  if (m.run_epoch == tls_run_epoch) return false;
  m.run_epoch = tls_run_epoch;
  m.serial = ++object_serial_;
  m.holder = kNoThread;
  m.waiters = WaitQueue{};
  return true;
}

std::string Engine::hang_message() const {
  return "hang: more than " + std::to_string(spec_.max_steps) + " scheduling steps (max_steps); T" +
         std::to_string(current_ ? current_->id : 0) + " was running";
}

std::string Engine::deadlock_message() const {
  std::string text = "deadlock: every thread waits:";
  for (const auto& t : threads_) {
    if (t->state != ThreadState::Blocked) continue;
    text += "\n  T" + std::to_string(t->id) + " waits for ";
    if (t->wait_kind == WaitKind::Join && t->join_target) {
      text += "T" + std::to_string(t->join_target->id) + " to finish (join)";
      continue;
    }
    text += wait_name(t->wait_kind);
    if (t->wait_model) {
      text += " #" + std::to_string(t->wait_model->serial);
      if (t->wait_model->holder != kNoThread)
        text += " held by T" + std::to_string(t->wait_model->holder);
    }
  }
  return text;
}

void Engine::teardown() {
  tearing_down_ = true;
  for (auto it = threads_.rbegin(); it != threads_.rend(); ++it) {
    FiberThread* t = it->get();
    if (t->abandoned) {
      parked_fibers().push_back(std::move(t->ctx));
      continue;
    }
    // Fibers that never ran are entered too (they finish at once): destroying them unentered
    // would unwind inside Boost.Context without telling AddressSanitizer.
    if (t->state == ThreadState::Exited || !t->ctx) continue;
    current_ = t;
    jump(t->ctx, &main_ctx_);
  }
  current_ = nullptr;
  threads_.clear();  // never-started fibers unwind inside Boost.Context's entry frame
}

RunOutcome Engine::run(const std::function<void()>& body) {
  ++tls_run_epoch;
  tls_engine = this;
#if CTRLSCHED_ASAN_FIBERS
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &main_stack_lo_, &main_stack_size_);
    pthread_attr_destroy(&attr);
  }
#endif
  // Process-wide pointer, per-thread engines: installed while any OS thread explores (the
  // handler ignores threads that do not).
  set_exploring(+1);
  FiberThread* t0 = new_thread(body);
  recorder_.on_thread_created(t0->id, kNoThread);
  runnable_ = 1;
  current_ = t0;
  jump(t0->ctx, &main_ctx_);
  teardown();
  set_exploring(-1);
  tls_engine = nullptr;

  RunOutcome outcome;
  if (failed_ || pending_) {
    outcome.kind = kind_;
    outcome.message = message_;
  }
  outcome.decisions = std::move(sink_.decisions);
  outcome.hash = recorder_.hash();
  outcome.steps = steps_;
  return outcome;
}

}  // namespace ctrlsched::detail
