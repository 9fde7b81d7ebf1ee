# Sourced by bench:floor and bench:ladder: `scratch_account NAME DBURL` seeds, with the built `tuma`
# command (run `pnpm build` first), an account on the migrated scratch database DBURL with 2,000,000,000
# TZ credits, and sets `account`, `wallet` and `market` (its TZ wallet). Answers 1, saying why, if not.
scratch_account() {
  local name=$1 dburl=$2
  local email
  email="$(tr '[:upper:]' '[:lower:]' <<<"$name")@example.com"
  account=$(DATABASE_URL="$dburl" node packages/http/dist/bin.js accounts create --name "$name" --email "$email" \
    --phone +255700000009 --country TZ --phone-verified |
    node -e 'const t=require("fs").readFileSync(0,"utf8");const j=JSON.parse(t.slice(t.search(/^[{[]/m)));console.log(j.uid ?? j.account.uid)')
  [ -n "$account" ] || { echo "could not create the account"; return 1; }
  DATABASE_URL="$dburl" node packages/http/dist/bin.js credits purchase --account "$account" --country TZ --units 2000000000 \
    >/dev/null || { echo "no credit"; return 1; }
  read -r wallet market <<<"$(psql "$dburl" -AtF' ' -c "select id, market_id from wallets where account_id = '$account'")"
}
