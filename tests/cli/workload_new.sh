#!/bin/sh
# `gpuwise workload new`: a commented starting workload per task that runs as it is against the
# shipped KB, its comments the field table's descriptions, an existing file never replaced
# without --force, and an unknown task a usage error naming the tasks.
. "$ROOT/tests/cli/lib.sh"

# ---- each task's file runs as it is ------------------------------------------------------------
for task in train finetune serve vision; do
    run "$GW" workload new --task "$task" -o "$T/$task.lua"
    check_rc "workload new --task $task exits 0" 0
    check_out "workload new --task $task says what it wrote" "wrote $T/$task.lua"
    check_eq "$task.lua names itself in its first line" "$(head -c $((${#task} + 7)) "$T/$task.lua")" "-- $task.lua"
    run "$GW" --kb "$SHIPPED_KB" decide "$T/$task.lua"
    check_rc "decide $task.lua as written: exit 0" 0
    check_out "decide $task.lua as written: a recommendation" "Recommendation:"
done
# the task field each writes: serve is a workload's "inference", vision trains an image model
check_eq "serve.lua sets task = inference" "$(grep -c '^    task = "inference",$' "$T/serve.lua")" 1
check_eq "vision.lua names a measured benchmark" "$(grep -c '^    benchmark = "resnet50",$' "$T/vision.lua")" 1
check_eq "finetune.lua sets the LoRA rank inside finetune = { }" "$(grep -c '^        rank = 16,$' "$T/finetune.lua")" 1
run "$GW" --kb "$SHIPPED_KB" report "$T/vision.lua" -o "$T/vision.md"
check_rc "report vision.lua as written: exit 0" 0

# ---- its comments are the field table's -------------------------------------------------------
# The two comment lines above `rank = 16` are finetune.rank's help from the field list, then
# what it takes (whole, 1 to 65536, default 16, the finetune table's task), as one sentence.
"$GW" help workload --json >"$T/fields.json"
rank_help=$(jq -r '.fields[] | select(.name == "finetune.rank") | .help' "$T/fields.json")
check_eq "the field list's help of finetune.rank" "$rank_help" "the adapters' rank (lora and qlora)"
comment=$(awk '/^        rank = 16,$/{print buf; exit} /^ *-- /{sub(/^ *-- /, ""); buf = buf (buf ? " " : "") $0; next} {buf = ""}' "$T/finetune.lua")
check_eq "the comment above rank is its description and what it takes" "$comment" \
    "The adapters' rank (lora and qlora). Takes a whole number at least 1 and at most 65536; default \`16\`; task finetune."
# every field a file sets is described above it: a line that sets a field follows a comment
bare=$(awk '/^ *[a-z_]+ = / && prev !~ /^ *-- / {print FILENAME ": " $0} {prev = $0}' "$T"/train.lua "$T"/finetune.lua "$T"/serve.lua "$T"/vision.lua)
check_eq "every field set in a starting file has its comment" "$bare" ""
# and every one is a field of the list (a table's fields by their dotted name)
unknown=""
for f in train finetune serve vision; do
    for name in $(awk '/^    [a-z_]+ = \{$/{t = $1 "."; next} /^    },$/{t = ""; next} /^ +[a-z_]+ = /{print t $1}' "$T/$f.lua"); do
        jq -e --arg n "$name" 'any(.fields[]; .name == $n)' "$T/fields.json" >/dev/null || unknown="$unknown $f:$name"
    done
done
check_eq "every field a starting file sets is in the field list" "$unknown" ""
# no line of a starting file is wider than 96 columns
check_eq "starting files keep to 96 columns" "$(awk 'length > 96' "$T"/*.lua | head -2)" ""

# ---- without -o: standard output ----------------------------------------------------------------
run "$GW" workload new --task serve
check_rc "workload new without -o exits 0" 0
check_out "without -o the file goes to standard output" "-- workload.lua — serving a language model"
check_out "and ends with the table's end" "    candidates = {"

# ---- an existing file is not replaced without --force -----------------------------------------
printf 'return { edited = true }\n' >"$T/mine.lua"
run "$GW" workload new --task train -o "$T/mine.lua"
check_rc "an existing file: exit 73" 73
check_err "the refusal names the file and --force" "gpuwise workload new: $T/mine.lua: already exists (not overwritten; --force replaces it)"
check_eq "the existing file is untouched" "$(cat "$T/mine.lua")" "return { edited = true }"
run "$GW" workload new --task train -o "$T/mine.lua" --force
check_rc "--force replaces it: exit 0" 0
check_eq "--force wrote the starting file" "$(head -c 11 "$T/mine.lua")" "-- mine.lua"

# ---- usage errors ------------------------------------------------------------------------------
run "$GW" workload new --task pretrain -o "$T/x.lua"
check_rc "an unknown task: exit 64" 64
check_err "an unknown task names the tasks" "--task: expected one of train|finetune|serve|vision, not 'pretrain'"
[ -e "$T/x.lua" ] && fail "an unknown task writes nothing" "$T/x.lua exists" || pass "an unknown task writes nothing"
run "$GW" workload new -o "$T/x.lua"
check_rc "no --task: exit 64" 64
check_err "no --task names the tasks" "--task: give one of train|finetune|serve|vision"
run "$GW" workload new --task serve -o "$T/no/such/dir/x.lua"
check_rc "a folder that does not exist: exit 73" 73
run "$GW" workload new --help
check_out "workload new --help: its usage" "usage: gpuwise workload new [OPTIONS]"
