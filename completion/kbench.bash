# bash completion for kbench. kbench completes its own command lines:
# 'kbench __complete -- WORD...' parses the words with the option table of
# the command they name (the table its --help and its parsing come from)
# and prints a line of directives (files[=EXT], dirs, nospace), then the
# candidates for the last word, one a line.

_kbench()
{
	local cur prev words cword
	_init_completion -n = || return

	local -a lines
	local directive
	mapfile -t lines < <("${words[0]}" __complete -- "${words[@]:0:cword}" "$cur" \
		2>/dev/null)
	((${#lines[@]})) || return
	COMPREPLY=("${lines[@]:1}")
	for directive in ${lines[0]}; do
		case $directive in
		nospace) compopt -o nospace ;;
		files) _filedir ;;
		files=*) _filedir "${directive#files=}" ;;
		dirs) _filedir -d ;;
		esac
	done
} &&
	complete -F _kbench kbench
