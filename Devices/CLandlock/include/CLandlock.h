// Landlock's three system calls, which glibc does not wrap (and Swift cannot call variadic
// syscall(2) itself), the constants the app sandbox uses (linux/landlock.h, Linux 5.13+), and
// giving up every capability (capset(2), prctl(2)).
#ifndef CLANDLOCK_H
#define CLANDLOCK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
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

struct __attribute__((packed)) kclab_landlock_net_port_attr {
    uint64_t allowed_access;
    uint64_t port;
};

/// A new ruleset handling `handled` file-system rights; from ABI 4 also TCP binds and connections
/// (none but the ports allowed later); from ABI 6 scoping signals and abstract UNIX sockets to
/// the sandbox (it can neither signal nor connect to what runs outside it). -1 on failure.
static inline int kclab_landlock_create_ruleset(uint64_t handled, long abi) {
    struct kclab_landlock_ruleset_attr attr = {.handled_access_fs = handled};
    size_t size = sizeof(uint64_t);
    if (abi >= 4) {
        attr.handled_access_net = (1ULL << 0) /* BIND_TCP */ | (1ULL << 1) /* CONNECT_TCP */;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = (1ULL << 0) /* ABSTRACT_UNIX_SOCKET */ | (1ULL << 1) /* SIGNAL */;
        size = sizeof(attr);
    }
    return (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0UL);
}

/// Allows TCP connections to `port` (ABI 4 and later); 0 or -1.
static inline int kclab_landlock_allow_connect(int ruleset, uint16_t port) {
    struct kclab_landlock_net_port_attr attr = {.allowed_access = (1ULL << 1) /* CONNECT_TCP */, .port = port};
    return (int)syscall(__NR_landlock_add_rule, ruleset, 2 /* LANDLOCK_RULE_NET_PORT */, &attr, 0UL);
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

/// `path` opened to be executed later by ``kclab_execute_opened`` (not closed on exec, so a script
/// can be read by its interpreter through /dev/fd), or -1.
static inline int kclab_open_program(const char *path) {
    return open(path, O_RDONLY);
}

/// Executes the program open as `fd`, whose path the caller may no longer reach (fexecve(3));
/// returns only on failure.
static inline int kclab_execute_opened(int fd, char *const argv[]) {
    extern char **environ;
    return fexecve(fd, argv, environ);
}

/// Gives up every capability, for good: the bounding set (so that executing a program, even as
/// root, grants none back), the ambient set, and the effective, permitted and inheritable sets.
/// With `user` of 0 or more, becomes that user ID (with it as the only group: setgroups,
/// setresgid, setresuid) between the two, while the powers to do so remain; with -1, a process
/// run as root keeps its user ID but none of root's powers beyond owning root's files (which
/// Landlock keeps it from). 0 or -1.
static inline int kclab_drop_capabilities(int64_t user) {
    for (int capability = 0; capability < 64; capability++) {
        if (prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0 && errno != EINVAL) return -1;
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return -1;
    if (user >= 0) {
        uid_t id = (uid_t)user;
        // The raw call: glibc's wrapper is declared in <grp.h>, whose headers clash with
        // Swift's Glibc module here; app-sandbox has one thread, so a per-thread call is whole.
        if (syscall(SYS_setgroups, 0, (void *)0) != 0) return -1;
        if (setresgid(id, id, id) != 0) return -1;
        if (setresuid(id, id, id) != 0) return -1;
    }
    struct {
        uint32_t version;
        int pid;
    } header = {0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0};
    struct {
        uint32_t effective, permitted, inheritable;
    } data[2] = {{0, 0, 0}, {0, 0, 0}};
    return (int)syscall(SYS_capset, &header, data);
}

#endif
