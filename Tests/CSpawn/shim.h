#include <spawn.h>
#ifdef __linux__
// glibc declares these only with _GNU_SOURCE, which the Swift Glibc module is not built with.
// Darwin's spawn.h declares posix_spawn_file_actions_addchdir_np itself and closes the other
// descriptors with POSIX_SPAWN_CLOEXEC_DEFAULT instead of addclosefrom.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict, const char *__restrict);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *, int);
#endif
