// Landlock is called through the inline functions of include/CLandlock.h.
