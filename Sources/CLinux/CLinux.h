// The Linux headers Swift's Glibc module leaves out: epoll(7) and eventfd(2).
// Only declarations: everything here is in the C library the daemon links.
#include <sys/epoll.h>
#include <sys/eventfd.h>
