// Landlock's three system calls, which glibc does not wrap (and Swift cannot call variadic
// syscall(2) itself), and the constants the app sandbox uses (linux/landlock.h, Linux 5.13+).
#ifndef CLANDLOCK_H
#define CLANDLOCK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

struct kclab_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;  // ABI 4
    uint64_t scoped;              // ABI 6
};

struct __attribute__((packed)) kclab_landlock_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
};

/// `path` opened only to name it in a rule (O_PATH), or -1.
static inline int kclab_open_path(const char *path) {
    return open(path, O_PATH | O_CLOEXEC);
}

/// The Landlock ABI version this kernel offers, or -1 (with errno) when it has none.
static inline long kclab_landlock_abi(void) {
    return syscall(__NR_landlock_create_ruleset, (void *)0, 0, 1UL /* LANDLOCK_CREATE_RULESET_VERSION */);
}

/// A new ruleset handling `handled` file-system rights and, from ABI 6, scoping signals and
/// abstract UNIX sockets to the sandbox (it can neither signal nor connect to what runs outside
/// it), or -1.
static inline int kclab_landlock_create_ruleset(uint64_t handled, long abi) {
    struct kclab_landlock_ruleset_attr attr = {.handled_access_fs = handled};
    size_t size = sizeof(uint64_t);
    if (abi >= 6) {
        attr.scoped = (1ULL << 0) /* ABSTRACT_UNIX_SOCKET */ | (1ULL << 1) /* SIGNAL */;
        size = sizeof(attr);
    }
    return (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0UL);
}

/// Allows `allowed` beneath the file or folder open as `parent_fd`; 0 or -1.
static inline int kclab_landlock_allow(int ruleset, int parent_fd, uint64_t allowed) {
    struct kclab_landlock_path_beneath_attr attr = {.allowed_access = allowed, .parent_fd = parent_fd};
    return (int)syscall(__NR_landlock_add_rule, ruleset, 1 /* LANDLOCK_RULE_PATH_BENEATH */, &attr, 0UL);
}

/// Confines this process (and what it executes) to the ruleset, for good; 0 or -1.
static inline int kclab_landlock_restrict(int ruleset) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return (int)syscall(__NR_landlock_restrict_self, ruleset, 0UL);
}

#endif
