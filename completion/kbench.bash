# bash completion for kbench: commands, workloads, options, config keys
# after -o, section names after --only, shipped configs after -c, and run
# names from the store for the commands that take runs.

# The long options a kbench command lists in its --help.
_kbench_options()
{
	"$1" ${2:+"$2"} --help 2>/dev/null |
		grep -oE '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^[ ,]//' | sort -u
}

# The option keys of a workload ("groups="), from its --help.
_kbench_keys()
{
	"$1" "$2" --help 2>/dev/null |
		awk '/^Options \(/ { on = 1; next } on && /^$/ { on = 0 }
		     on && /^  [a-z_.*]+ / { print $1 "=" }'
}

# The run names of the store (--db from the command line if given).
_kbench_runs()
{
	"$1" ${2:+--db "$2"} runs --format csv 2>/dev/null |
		awk -F, '/^#/ || $1 == "id" { next } $3 != "" { print $3 }' | sort -u
}

_kbench()
{
	local cur prev words cword
	_init_completion || return

	local kb=${words[0]} db= cmd= i
	local commands="run vm runs show compare topology note query history regressions
		export import mail fleet configs ab experiments recover calibrate help"
	local workloads="hackbench netperf pft external"

	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--db) db=${words[i + 1]}; ((i++)) ;;
		--db=*) db=${words[i]#--db=} ;;
		-*) ;;
		*) [[ -z $cmd ]] && cmd=${words[i]} ;;
		esac
	done

	case $prev in
	--db)
		_filedir db
		return
		;;
	-c | --config)
		if [[ $cmd == run || $cmd == vm || $cmd == fleet || $cmd == ab ]]; then
			_filedir conf
			COMPREPLY+=($(compgen -W "$("$kb" configs 2>/dev/null |
				awk '/^[^ ]/ { print $1 }')" -- "$cur"))
			return
		fi
		;;
	-o | --option)
		local keys= w
		if [[ $cmd == run || $cmd == vm ]]; then
			for w in $workloads; do
				keys+=" $(_kbench_keys "$kb" "$w")"
			done
			keys+=" iterations= warmup= timeout= monitors= perf_events= order="
			# SECTION.KEY= for the sections of the configs given.
			local files=() sections s k
			for ((i = 1; i < cword; i++)); do
				[[ ${words[i]} == -c || ${words[i]} == --config ]] &&
					files+=("${words[i + 1]}")
			done
			sections=$(sed -n 's/^[[:space:]]*\[\([^]]*\)\].*/\1/p' "${files[@]}" \
				/dev/null 2>/dev/null | grep -vx global)
			for s in $sections; do
				if [[ $cur == "$s".* ]]; then
					for k in $keys; do
						keys+=" $s.$k"
					done
				else
					keys+=" $s."
				fi
			done
		elif [[ " $workloads " == *" $cmd "* ]]; then
			keys=$(_kbench_keys "$kb" "$cmd")
		else
			_filedir
			return
		fi
		compopt -o nospace
		COMPREPLY=($(compgen -W "$keys" -- "$cur"))
		return
		;;
	-k | --kernel | --initrd)
		_filedir
		return
		;;
	--accel)
		COMPREPLY=($(compgen -W "auto kvm tcg" -- "$cur"))
		return
		;;
	--vcpu-pin)
		COMPREPLY=($(compgen -W "spread compact unbound" -- "$cur"))
		return
		;;
	--only)
		local files=() sections
		for ((i = 1; i < cword; i++)); do
			[[ ${words[i]} == -c || ${words[i]} == --config ]] &&
				files+=("${words[i + 1]}")
		done
		sections=$(sed -n 's/^[[:space:]]*\[\([^]]*\)\].*/\1/p' "${files[@]}" \
			/dev/null 2>/dev/null | grep -vx global)
		COMPREPLY=($(compgen -W "$sections" -- "$cur"))
		return
		;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--db --quiet -q --version --help" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands $workloads" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_kbench_options "$kb" "$cmd") --db --quiet -q" \
			-- "$cur"))
		return
	fi
	case $cmd in
	show | compare | note | export | history | mail)
		COMPREPLY=($(compgen -W "$(_kbench_runs "$kb" "$db")" -- "$cur"))
		;;
	import)
		_filedir
		;;
	esac
} &&
	complete -F _kbench kbench
