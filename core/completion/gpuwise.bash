# bash completion for gpuwise.  Everything it offers comes from the program itself
# (`gpuwise complete CWORD WORD...`), from the same tables that parse the command line, and from
# the KB and plugin folders in use: commands, subcommands, options, option values, GPU names and
# aliases, plugin and checklist names.  "@files" and "@dirs" ask for file and folder names.
_gpuwise()
{
    local cur=${COMP_WORDS[COMP_CWORD]} line
    local -a found=()
    COMPREPLY=()
    while IFS= read -r line; do
        found+=("$line")
    done < <("${COMP_WORDS[0]}" complete "$COMP_CWORD" "${COMP_WORDS[@]}" 2>/dev/null)
    [ "$cur" = "=" ] && cur=""
    local w
    for w in "${found[@]}"; do
        case "$w" in
            @files) compopt -o filenames 2>/dev/null; COMPREPLY+=($(compgen -f -- "$cur")) ;;
            @dirs) compopt -o filenames 2>/dev/null; COMPREPLY+=($(compgen -d -- "$cur")) ;;
            *\ *) COMPREPLY+=("$(printf '%q' "$w")") ;;
            *) COMPREPLY+=("$w") ;;
        esac
    done
}
complete -F _gpuwise gpuwise
