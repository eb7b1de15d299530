#!/bin/sh
# Hostile XML: dumps that declare entities to expand into gigabytes (billion laughs, quadratic
# blowup) through `inspect` and `checklist --dump`, and a plugin reading entities with
# node:text().  Each is refused at once (exit 65, one line naming the file and the reason), in
# a few MB; an ordinary dump of 1 MB parses in under 64 MB.
. "$ROOT/tests/cli/lib.sh"

HEALTHY="$FIX/nvsmi/healthy-3090.xml"
# The sanitizers reserve terabytes of address space: no ulimit -v there, and their own memory
# would swamp the RSS measured.
ASAN=0
nm "$GW" 2>/dev/null | grep -q '__asan_' && ASAN=1

# with_dtd FILE SUBSET_FILE REF_FILE: the healthy dump with SUBSET_FILE as its internal DTD
# subset and REF_FILE's text at the start of its product name.  (Files, not arguments: one
# argument holds at most 128 kB; awk's index and substr, as sub would read '&' as the match.)
with_dtd() {
    { printf '<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log [\n'
      cat "$2"
      printf '\n]>\n'
      awk -v reffile="$3" '
          BEGIN { while ((getline l < reffile) > 0) ref = ref l }
          FNR > 2 { i = index($0, "<product_name>")
                    if (i) $0 = substr($0, 1, i + 13) ref substr($0, i + 14) }
          FNR > 2 { print }' "$HEALTHY"; } >"$1"
}

# Billion laughs: ten levels of ten references each; &lol9; stands for 10^9 copies of "lol",
# 3 GB of text, from 1 kB of declarations.
{
    echo '<!ENTITY lol0 "lol">'
    i=1
    while [ $i -le 9 ]; do
        printf '<!ENTITY lol%d "' $i
        for _ in 1 2 3 4 5 6 7 8 9 10; do printf '&lol%d;' $((i - 1)); done
        printf '">\n'
        i=$((i + 1))
    done
} >"$T/laughs.dtd"
echo '&lol9;' >"$T/laughs.ref"
with_dtd "$T/laughs.xml" "$T/laughs.dtd" "$T/laughs.ref"

# Quadratic blowup: one entity of 200,000 bytes used 100,000 times (400 kB of references): a
# 600 kB dump whose product name is 2 * 10^10 bytes, 20 GB.  libxml2 2.9.14 lets this one through
# its own checks: before the refusal, inspect read it under a memory cap and exited 0 with the
# product name missing.
{ printf '<!ENTITY a "'; head -c 200000 /dev/zero | tr '\0' x; printf '">\n'; } >"$T/quadratic.dtd"
yes '&a;' | head -n 100000 | tr -d '\n' >"$T/quadratic.ref"
with_dtd "$T/quadratic.xml" "$T/quadratic.dtd" "$T/quadratic.ref"
size=$(wc -c <"$T/quadratic.xml")
[ "$size" -lt 1048576 ] && pass "quadratic dump under 1 MB ($size bytes)" ||
    fail "quadratic dump under 1 MB" "$size bytes"

# A parameter entity is refused as a general one is.
echo '<!ENTITY % p "<!ENTITY q \"x\">"> %p;' >"$T/parameter.dtd"
: >"$T/empty.ref"
with_dtd "$T/parameter.xml" "$T/parameter.dtd" "$T/empty.ref"

# An ordinary dump of 1 MB: the healthy one with 5,000 processes (each 200 bytes).
awk '/<processes>/ { print; for (i = 0; i < 5000; i++)
         printf "\t\t\t<process_info><gpu_instance_id>N/A</gpu_instance_id><compute_instance_id>" \
                "N/A</compute_instance_id><pid>%d</pid><type>C</type><process_name>python train.py" \
                "</process_name><used_memory>512 MiB</used_memory></process_info>\n", 1000 + i
         next } { print }' "$HEALTHY" >"$T/big-ordinary.xml"

# capped NAME CMD...: runs CMD with at most 256 MiB of address space (so that a regression fails
# here instead of taking the machine's memory), its peak resident memory in KiB in $RSS where
# /usr/bin/time can tell (else empty).
capped() {
    _name=$1
    shift
    RSS=
    if [ -x /usr/bin/time ]; then
        if [ $ASAN = 1 ]; then run /usr/bin/time -o "$T/$_name.rss" -f %M "$@"
        else run sh -c 'ulimit -v 262144; exec /usr/bin/time -o "$0" -f %M "$@"' "$T/$_name.rss" "$@"; fi
        RSS=$(tail -n 1 "$T/$_name.rss" 2>/dev/null)
        # time adds "Command exited with non-zero status N" to its own file, not to $ERR
    elif [ $ASAN = 1 ]; then
        run "$@"
    else
        run sh -c 'ulimit -v 262144; exec "$@"' sh "$@"
    fi
}
# small_rss NAME: the last run's peak stayed under 64 MiB (65,536 KiB)
small_rss() {
    if [ $ASAN = 1 ]; then skip "$1" "the sanitizers' own memory"
    elif [ -z "$RSS" ]; then skip "$1" "/usr/bin/time not installed"
    elif [ "$RSS" -lt 65536 ]; then pass "$1"
    else fail "$1" "peak RSS $RSS KiB"; fi
}
# one_line_error NAME FILE ENTITY: exit 65 and one line on stderr naming FILE, the line of the
# first declaration (3: after the XML declaration and the DOCTYPE) and the entity
one_line_error() {
    check_rc "$1: exit 65" 65
    check_err "$1: names the file and the entity" "$2:3: declares the entity '$3'"
    check_eq "$1: one line" "$(printf '%s\n' "$ERR" | grep -c '')" 1
    check_eq "$1: no report on stdout" "$OUT" ""
}

for dump in laughs:lol0 quadratic:a parameter:p; do
    name=${dump%%:*} entity=${dump#*:}
    capped "inspect-$name" "$GW" inspect "$T/$name.xml"
    one_line_error "inspect $name" "$T/$name.xml" "$entity"
    small_rss "inspect $name: under 64 MiB"
    capped "checklist-$name" "$GW" checklist used-card --dump "$T/$name.xml"
    one_line_error "checklist --dump $name" "$T/$name.xml" "$entity"
    small_rss "checklist --dump $name: under 64 MiB"
done

# JSON asks for the same refusal: no half-filled document.
capped inspect-json "$GW" --json inspect "$T/quadratic.xml"
check_rc "inspect --json quadratic: exit 65" 65
check_eq "inspect --json quadratic: nothing on stdout" "$OUT" ""

# The ordinary 1 MB dump: read whole, every process counted, in under 64 MiB.
size=$(wc -c <"$T/big-ordinary.xml")
[ "$size" -gt 1000000 ] && pass "ordinary dump of 1 MB ($size bytes)" ||
    fail "ordinary dump of 1 MB" "$size bytes"
capped inspect-ordinary "$GW" --json inspect "$T/big-ordinary.xml"
check_rc "inspect ordinary 1 MB dump" 0
check_out "inspect ordinary 1 MB dump: the product name read" '"NVIDIA GeForce RTX 3090"'
small_rss "inspect ordinary 1 MB dump: under 64 MiB"

# A plugin: gw.xml.parse refuses a document that declares an entity (before, node:text() gave
# the expansion, "aEXPANDEDb"), and node:text() adds nothing for a reference to an entity it was
# never told (an external DTD's, which is never loaded).  Character data, CDATA and the
# predefined entities read as the characters they stand for.
P="$T/plugins/pricing"
mkdir -p "$P"
cat >"$P/entity-text.lua" <<'LUA'
-- text() of a saved page: what a plugin gets from XML that uses entities.
local function read(text, path)
  local doc, msg = gw.xml.parse(text, "saved.xml")
  if not doc then return nil, msg end
  local node = path and doc:xpath(path)[1] or doc:root()
  return node:text()
end
return {
  name = "entity-text", kind = "pricing", version = "1.0", description = "text() of entities",
  read = read,
  offers = function(ctx) return {} end,
}
LUA
cat >"$P/entity-text_test.lua" <<'LUA'
return {
  test_declared_entity_refused = function(plugin)
    local text, msg = plugin.read('<!DOCTYPE r [<!ENTITY e "EXPANDED">]>\n<r>a&e;b</r>')
    assert(text == nil, "parsed, text() gave '" .. tostring(text) .. "'")
    assert(msg:find("saved.xml:1: declares the entity 'e'", 1, true), msg)
  end,
  test_laughs_refused = function(plugin)
    local text, msg = plugin.read('<!DOCTYPE r [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;">]>\n' ..
                                  '<r>&b;&b;</r>')
    assert(text == nil and msg:find("declares the entity 'a'", 1, true), tostring(msg))
  end,
  test_undeclared_entity_adds_nothing = function(plugin)
    local text = plugin.read('<!DOCTYPE r SYSTEM "r.dtd">\n<r>a&ext;b &amp; <i>c</i><![CDATA[<d>]]></r>')
    assert(text == "ab & c<d>", "text() gave '" .. tostring(text) .. "'")
  end,
  test_attribute_text = function(plugin)
    local text = plugin.read('<r id=" x &lt; y "/>', "/r/@id")
    assert(text == "x < y", "text() gave '" .. tostring(text) .. "'")
  end,
}
LUA
run "$GW" plugin test "$P/entity-text.lua"
check_rc "plugin: node:text() and entities, as the guide says" 0
check_out "plugin: every test ran" "4 passed, 0 failed"
