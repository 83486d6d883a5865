// One model per primitive. Interposers (shim/interpose/) stay thin: they check that the shim
// controls the calling thread and call these. Each model operation starts with a scheduling
// point, so the strategy may switch threads before the operation takes effect. Results are
// errno values (0 = success), as the pthread functions return them.
#pragma once

#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include <cstdint>

#include "thread_table.h"
#include "virtual_time.h"

namespace ctrlsched::shim {

enum class WaitMode : std::uint8_t { Block, Try, Timed };

bool valid_timeout(const timespec* t);

// Mutexes: state kept in the pthread_mutex_t itself with glibc's encoding.
int mutex_lock(Thread* me, pthread_mutex_t* m, WaitMode mode, Timeout timeout);
int mutex_unlock(Thread* me, pthread_mutex_t* m);
int mutex_consistent(Thread* me, pthread_mutex_t* m);
// `me` is exiting: waiters of robust mutexes it still holds retry (and take them over).
void release_robust_mutexes_of(Thread* me);
// Without a scheduling point, for condition waits: release fully / re-acquire with saved count.
unsigned mutex_release_for_wait(Thread* me, pthread_mutex_t* m);
void mutex_reacquire_after_wait(Thread* me, pthread_mutex_t* m, unsigned count);

// timeout.abstime == nullptr: an untimed wait.
int cond_wait(Thread* me, pthread_cond_t* c, pthread_mutex_t* m, Timeout timeout);
// The clock a condition variable's timed waits use (pthread_condattr_setclock).
clockid_t cond_clock(const pthread_cond_t* c);
int cond_signal(Thread* me, pthread_cond_t* c);
int cond_broadcast(Thread* me, pthread_cond_t* c);

int rwlock_rdlock(Thread* me, pthread_rwlock_t* rw, WaitMode mode, Timeout timeout);
int rwlock_wrlock(Thread* me, pthread_rwlock_t* rw, WaitMode mode, Timeout timeout);
int rwlock_unlock(Thread* me, pthread_rwlock_t* rw);
int rwlock_destroy(pthread_rwlock_t* rw);

int semaphore_wait(Thread* me, sem_t* s, WaitMode mode, Timeout timeout);
int semaphore_post(Thread* me, sem_t* s);
int semaphore_value(Thread* me, sem_t* s, int* value);

int barrier_init(pthread_barrier_t* b, unsigned count);
int barrier_wait(Thread* me, pthread_barrier_t* b);
int barrier_destroy(pthread_barrier_t* b);

int spin_lock(Thread* me, pthread_spinlock_t* s, WaitMode mode);
int spin_unlock(Thread* me, pthread_spinlock_t* s);

int once(Thread* me, pthread_once_t* control, void (*routine)(void));

// syscall(SYS_futex, ...): FUTEX_WAIT/WAKE and the BITSET forms (`bitset`: the call's val3) are
// modelled; *handled is
// false for other operations, which go to the kernel. Returns the syscall result (-errno style
// is NOT used: returns -1 and sets errno, like syscall()).
long futex(Thread* me, std::uint32_t* word, int op, std::uint32_t value, const timespec* timeout,
           std::uint32_t bitset, bool* handled);

int thread_create(Thread* me, pthread_t* out, const pthread_attr_t* attr, void* (*start)(void*),
                  int (*c11_start)(void*), void* arg);
int thread_join(Thread* me, pthread_t handle, void** result, WaitMode mode, Timeout timeout);
int thread_detach(Thread* me, pthread_t handle);
// True if `handle` names a thread the shim created (else the interposer forwards to libc).
bool is_controlled_thread(pthread_t handle);
Thread* find_controlled_thread(pthread_t handle);  // nullptr if none

// Deferred cancellation (cancel.cc). cancellation_point acts on a pending cancel (it does not
// return then: the thread exits with PTHREAD_CANCELED through glibc's unwinding).
int thread_cancel(Thread* me, pthread_t handle);
void cancellation_point(Thread* me);
int set_cancel_state(Thread* me, int state, int* old_state);
int set_cancel_type(Thread* me, int type, int* old_type);

}  // namespace ctrlsched::shim
