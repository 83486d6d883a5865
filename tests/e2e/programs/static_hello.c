/* Linked with -static: ctrlsched must refuse it (LD_PRELOAD cannot work) with exit code 3. */
int main(void) { return 0; }
