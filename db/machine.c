/* machine: the store's reads of the machines it holds, and scratch
 * stores (what an importer writes a bundle into). */
#include "config.h"

#include <stdlib.h>

#include "db/internal.h"
#include "db/store.h"
#include "machine/sysinfo.h"

int store_adopt_machine(struct store *s, struct machine_info *m)
{
	sqlite3_stmt *st = NULL;
	int rc, found = 0;

	if (store_prepare(s, "SELECT cpu_model, cores, packages, mem_bytes FROM machines "
			  "WHERE hostname = ?1 AND cpus = ?2 AND numa_nodes IS ?3 AND "
			  "mem_bytes >> 20 = ?4 AND rtrim(cpu_model) = ?5 AND "
			  "(?6 = 0 OR cores = ?6) AND (?7 = 0 OR packages = ?7) LIMIT 2", &st))
		return -1;
	store_bind_text(st, 1, m->hostname);
	sqlite3_bind_int(st, 2, m->cpus);
	sqlite3_bind_int(st, 3, m->numa_nodes);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)(m->mem_bytes >> 20));
	store_bind_text(st, 5, m->cpu_model);
	sqlite3_bind_int(st, 6, m->cores);
	sqlite3_bind_int(st, 7, m->packages);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		char *model = store_column_dup(st, 0);
		int cores = sqlite3_column_int(st, 1), packages = sqlite3_column_int(st, 2);
		uint64_t mem = (uint64_t)sqlite3_column_int64(st, 3);

		rc = sqlite3_step(st);
		if (rc == SQLITE_DONE) {
			free(m->cpu_model);
			m->cpu_model = model;
			model = NULL;
			m->cores = cores;
			m->packages = packages;
			m->mem_bytes = mem;
			found = 1;
		}
		free(model);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_db_error(s, "cannot read the machines");
	return found;
}

int store_open_scratch(const char *path, struct store **out)
{
	if (store_open(path, out))
		return -1;
	if (store_exec(*out, "PRAGMA synchronous = OFF", "scratch bundle")) {
		store_close(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

void store_remove_scratch(const char *path)
{
	store_remove_db_files(path);
}
