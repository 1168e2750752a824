# lib-fleet.sh: a real Slurm cluster of two simulated nodes and a real
# nginx WebDAV server on loopback ports, for the fleet tests. Source it
# after lib.sh. Every daemon runs from the test's scratch directory with
# its own configs, keys, sockets, state and logs, and is stopped by its
# PID when the test ends, pass or fail (an EXIT trap).
#
#   fleet_need slurm|nginx...  skip the test (outside CI) or fail it (CI=true)
#                              unless the programs are there and we are root
#   start_nginx                WebDAV (PUT, MOVE, MKCOL, DELETE, PROPFIND) on
#                              $http_port, files under $www; $results is the
#                              URL of its /results/ collection. Extra lines
#                              for that location may be given in
#                              $nginx_extra. /mk/ lacks create_full_put_path
#                              (collections need MKCOL), /plain/ takes PUT
#                              only. With $nginx_tls set to a directory
#                              holding server.pem (the certificate chain)
#                              and server.key, the same over HTTPS on
#                              $https_port too, $results_tls its URL
#   stop_nginx
#   start_slurm                munged, slurmctld, slurmd -N n1 and -N n2 on
#                              free ports, SLURM_CONF exported; waits until
#                              both nodes are idle
#   stop_slurmctld             the controller only (the nodes stay)
#   stop_daemons               every daemon still running (the EXIT trap)
#   wait_until SECONDS CMD...  run CMD every 0.2 s until it succeeds; false
#                              when SECONDS pass first
#   jobs_left                  true while kbench jobs are queued or running
#   dump_logs                  the daemons' logs and the jobs' output, as TAP
#                              comments (after a failure)

fleet_pids=$tmp/pids
mkdir -p "$fleet_pids" "$tmp/log"
trap 'stop_daemons; rm -rf "$tmp"; [ -z "${sl:-}" ] || rm -rf "$sl"' EXIT
trap 'exit 130' INT TERM

# fleet_need WHAT...: slurm, nginx.
fleet_need() {
	fn_missing=
	for fn_what; do
		case $fn_what in
		slurm) fn_progs="munged munge slurmctld slurmd sbatch squeue scancel sinfo sacct" ;;
		nginx) fn_progs="nginx" ;;
		esac
		for fn_p in $fn_progs; do
			command -v "$fn_p" >/dev/null 2>&1 ||
				[ -x "/usr/sbin/$fn_p" ] || fn_missing="$fn_missing $fn_p"
		done
		[ "$fn_what" = nginx ] && [ ! -f "$nginx_dav_ext" ] &&
			fn_missing="$fn_missing $nginx_dav_ext"
	done
	[ "$(id -u)" -eq 0 ] || fn_missing="$fn_missing (root: slurmd runs jobs as their user)"
	[ -z "$fn_missing" ] && return 0
	if [ "${CI:-}" = true ]; then
		ok 1 "the fleet test needs:$fn_missing (.ci/install-deps --test installs them)"
	else
		skip "the fleet test needs:$fn_missing"
	fi
	done_testing
	exit
}
nginx_dav_ext=/usr/lib/nginx/modules/ngx_http_dav_ext_module.so
PATH=$PATH:/usr/sbin:/sbin

# free_port: a TCP port of the loopback nobody listens on (nor one we took).
free_port() {
	while :; do
		fp=$(( 20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000 ))
		grep -qx "$fp" "$tmp/ports" 2>/dev/null && continue
		ss -Htln "sport = :$fp" 2>/dev/null | grep -q . && continue
		echo "$fp" >>"$tmp/ports"
		echo "$fp"
		return
	done
}

# stop_pid FILE: TERM the daemon whose pid FILE holds, wait for it to go
# (10 s), then KILL it.
stop_pid() {
	[ -s "$1" ] || return 0
	sp=$(cat "$1")
	if kill -TERM "$sp" 2>/dev/null; then
		wait_until 10 sh -c "! kill -0 $sp" || kill -KILL "$sp" 2>/dev/null
	fi
	rm -f "$1"
}

www=$tmp/www
start_nginx() {
	mkdir -p "$www/results" "$www/mk" "$www/plain" "$tmp/nginx"
	[ -n "${http_port:-}" ] || http_port=$(free_port)
	results=http://127.0.0.1:$http_port/results
	sn_tls=
	if [ -n "${nginx_tls:-}" ]; then
		[ -n "${https_port:-}" ] || https_port=$(free_port)
		results_tls=https://127.0.0.1:$https_port/results
		sn_tls="listen 127.0.0.1:$https_port ssl;
	        ssl_certificate $nginx_tls/server.pem;
	        ssl_certificate_key $nginx_tls/server.key;"
	fi
	cat >"$tmp/nginx/nginx.conf" <<-EOF
	load_module $nginx_dav_ext;
	user root root;
	daemon on;
	worker_processes 1;
	pid $fleet_pids/nginx.pid;
	error_log $tmp/log/nginx-error.log;
	events { worker_connections 64; }
	http {
	    access_log $tmp/log/nginx-access.log;
	    client_body_temp_path $tmp/nginx/body;
	    proxy_temp_path $tmp/nginx/proxy;
	    fastcgi_temp_path $tmp/nginx/fastcgi;
	    uwsgi_temp_path $tmp/nginx/uwsgi;
	    scgi_temp_path $tmp/nginx/scgi;
	    server {
	        listen 127.0.0.1:$http_port;
	        $sn_tls
	        root $www;
	        location /results/ {
	            dav_methods PUT DELETE MKCOL COPY MOVE;
	            dav_ext_methods PROPFIND OPTIONS;
	            create_full_put_path on;
	            dav_access user:rw group:r all:r;
	            client_max_body_size 64m;
	            ${nginx_extra:-}
	        }
	        # No create_full_put_path: a host's collection needs MKCOL.
	        location /mk/ {
	            dav_methods PUT MKCOL MOVE;
	            dav_ext_methods PROPFIND OPTIONS;
	        }
	        # PUT only: no listing, no MOVE.
	        location /plain/ {
	            dav_methods PUT;
	            create_full_put_path on;
	        }
	    }
	}
	EOF
	nginx -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx" -e "$tmp/log/nginx-error.log" \
		>>"$tmp/log/nginx-start.log" 2>&1 &&
		wait_until 10 test -s "$fleet_pids/nginx.pid" &&
		wait_until 10 sh -c "ss -Htln 'sport = :$http_port' | grep -q ."
}

stop_nginx() {
	stop_pid "$fleet_pids/nginx.pid"
}

start_slurm() {
	# Sockets live here (munge's, and slurmd's and slurmstepd's in the
	# spool directories), and a socket's path must fit sun_path (108
	# bytes): a scratch directory under a deep checkout does not. So a
	# short directory of its own, removed by the EXIT trap.
	sl=$(mktemp -d /tmp/kbslurm.XXXXXX) || return 1
	# munged wants every directory above its socket searchable by all.
	chmod 755 "$sl"
	mkdir -p "$sl/state" "$sl/spool/n1" "$sl/spool/n2" "$sl/munge"
	chmod 700 "$sl/munge"
	# A key of our own: nothing of the machine's munge is used.
	dd if=/dev/urandom of="$sl/munge/munge.key" bs=1024 count=1 2>/dev/null
	chmod 600 "$sl/munge/munge.key"
	munged --force --socket="$sl/munge/munge.socket" --key-file="$sl/munge/munge.key" \
		--pid-file="$fleet_pids/munged.pid" --log-file="$tmp/log/munged.log" \
		--seed-file="$sl/munge/seed" >>"$tmp/log/munged.log" 2>&1 || return 1
	wait_until 10 test -S "$sl/munge/munge.socket" || return 1
	host=$(hostname -s)
	ctld_port=$(free_port)
	n1_port=$(free_port)
	n2_port=$(free_port)
	cat >"$sl/slurm.conf" <<-EOF
	ClusterName=kbtest
	SlurmctldHost=$host(127.0.0.1)
	SlurmctldPort=$ctld_port
	SlurmUser=root
	SlurmdUser=root
	AuthType=auth/munge
	AuthInfo=socket=$sl/munge/munge.socket
	CredType=cred/munge
	StateSaveLocation=$sl/state
	SlurmdSpoolDir=$sl/spool/%n
	SlurmctldPidFile=$fleet_pids/slurmctld.pid
	SlurmdPidFile=$fleet_pids/slurmd-%n.pid
	SlurmctldLogFile=$tmp/log/slurmctld.log
	SlurmdLogFile=$tmp/log/slurmd-%n.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	ReturnToService=2
	MpiDefault=none
	MessageTimeout=5
	SchedulerParameters=sched_interval=2
	JobAcctGatherType=jobacct_gather/none
	AccountingStorageType=accounting_storage/none
	JobCompType=jobcomp/filetxt
	JobCompLoc=$tmp/log/jobcomp.txt
	NodeName=n1 NodeHostname=$host NodeAddr=127.0.0.1 Port=$n1_port CPUs=1 RealMemory=256 State=UNKNOWN
	NodeName=n2 NodeHostname=$host NodeAddr=127.0.0.1 Port=$n2_port CPUs=1 RealMemory=256 State=UNKNOWN
	PartitionName=bench Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
	EOF
	SLURM_CONF=$sl/slurm.conf
	export SLURM_CONF
	slurmctld >>"$tmp/log/slurmctld-start.log" 2>&1 &&
		slurmd -N n1 >>"$tmp/log/slurmd-start.log" 2>&1 &&
		slurmd -N n2 >>"$tmp/log/slurmd-start.log" 2>&1 &&
		wait_until 60 sh -c '[ "$(sinfo -h -N -t idle -o %N | sort -u | tr "\n" " ")" = "n1 n2 " ]'
}

stop_slurmctld() {
	stop_pid "$fleet_pids/slurmctld.pid"
}

stop_daemons() {
	if [ -s "$fleet_pids/slurmctld.pid" ]; then
		# Nothing of a job is left running when the nodes go.
		sd_jobs=$(squeue -h -o %i 2>/dev/null)
		[ -n "$sd_jobs" ] && scancel $sd_jobs 2>/dev/null
	fi
	for sd_f in "$fleet_pids"/slurmd-*.pid "$fleet_pids/slurmctld.pid" \
		"$fleet_pids/munged.pid" "$fleet_pids/nginx.pid"; do
		stop_pid "$sd_f"
	done
}

jobs_left() {
	squeue -h -o %j | grep -q '^kbench-'
}

dump_logs() {
	for dl_f in "$tmp"/log/* "$tmp"/slurm-*.out; do
		[ -f "$dl_f" ] || continue
		echo "# --- $dl_f"
		tail -n 30 "$dl_f" | comment
	done
}
