/* Compiled with ctrlsched_instrument(): plain C code whose accesses become scheduling points
 * inside ctrlsched::explore through the inert hook library's dispatch pointer. */
int instrumented_counter = 0;

void instrumented_increment(void) { instrumented_counter = instrumented_counter + 1; }
