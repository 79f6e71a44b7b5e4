// libpq-fe.h includes these two by quoted name: listed here too, so that every header the
// module needs is named (scripts/check-darwin stages what a module's shim names).
#include <pg_config_ext.h>
#include <postgres_ext.h>
#include <libpq-fe.h>
