#pragma once

// A stand-in for kvlens-cli (a /bin/sh script) answering what the New run dialog asks:
// info, presses --json, tasks list --json, tasks validate, and run (progress lines;
// its arguments go to args.txt next to the script).
#include <QFile>
#include <QTemporaryDir>

namespace guitest {

inline QString writeFakeCli(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("fake-cli"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(R"SH(#!/bin/sh
here=$(dirname "$0")
case "$1" in
info)
  if [ "$3" = bundled ] || [ -f "$3/config.json" ]; then
    echo '{"architecture":"FakeForCausalLM","dir":"/models/fake","parameters":1329024,"num_layers":4,"num_heads":4,"num_kv_heads":2}'
  else
    echo "kvlens-cli info: error: $3/config.json: missing: a model directory needs config.json" >&2
    exit 1
  fi ;;
presses)
  cat <<'JSON'
{"presses":[
 {"name":"snapkv","kind":"scorer","inner":"","rule":"window attention","params":[
   {"name":"window","default":"64","help":"observation window","type":"int","min":1,"max":1048576},
   {"name":"kernel","default":"5","help":"avg-pool kernel (odd)","type":"int","min":1,"max":1001}]},
 {"name":"knorm","kind":"scorer","inner":"","rule":"-||k||","params":[]},
 {"name":"expected","kind":"scorer","inner":"","rule":"expected attention","params":[
   {"name":"use_covariance","default":"true","help":"covariance term","type":"bool"},
   {"name":"epsilon","default":"0","help":"added before the product","type":"float","min":0,"max":1e9}]},
 {"name":"adakv","kind":"selector","inner":"scorer","inner_type":"scorer","inner_choices":["snapkv","knorm","expected","cur"],"rule":"head-wise budgets","params":[
   {"name":"alpha_safeguard","default":"0.2","help":"share every head keeps","type":"float","min":0,"max":1}]},
 {"name":"pyramidkv","kind":"selector","inner":"scorer (optional, default snapkv)","rule":"layer budgets","params":[]},
 {"name":"whitelist","kind":"wrapper","inner":"scorer","rule":"protect spans","params":[
   {"name":"roles","default":"","help":"roles, ';'-separated","type":"text"}]},
 {"name":"cur","kind":"scorer","inner":"","rule":"leverage","params":[
   {"name":"leverage","default":"kv_product","help":"which leverage","type":"choice","choices":["kv_product","kv_avg","key","value"]}]}],
 "syntax":"name[(inner)][:param=value,...]"}
JSON
  ;;
tasks)
  case "$2" in
  list) echo '{"suites":[{"name":"retrieval","description":"lookup","variants":[{"name":"single"},{"name":"multikey"}]},{"name":"multihop","description":"chains","variants":[{"name":"hops2"},{"name":"hops3"}]}]}' ;;
  validate)
    if grep -q bad "$3"; then echo "kvlens-cli tasks: error: $3: line 1: field 'id': missing" >&2; exit 1; fi
    echo '{"ok":true,"samples":3}' ;;
  esac ;;
run)
  printf '%s\n' "$@" > "$here/args.txt"
  echo '{"done":1,"total":2,"elapsed_s":0.5,"eta_s":0.5,"accuracy":1}'
  echo '{"done":2,"total":2,"elapsed_s":1.0,"eta_s":0}'
  ;;
esac
)SH");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

} // namespace guitest
