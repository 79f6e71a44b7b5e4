// bench-load: the load generator and seeding tool behind bench/sale.sh and bench/history.sh.
//
//   bench-load setup      --url U --region EU --backoffice-key K --terminals T1,T2,… --out STATE [--pin 1234]
//                         registers one device per terminal over HTTP (portal activation), logs it in,
//                         fetches the reader key; writes what the load needs to STATE (JSON).
//   bench-load sale       --state STATE --url U|--urls U1,U2 [--expect-status 201] [--expect-contains S]
//                         [--card-file sandbox-data/cards.json] [--card visa] [--amount 1000] [--currency EUR]
//                         [--save-body FILE]
//                         one thread and one keep-alive connection per device of STATE, each sealing a
//                         fresh card payload and POSTing a sale, back to back.
//   bench-load apm        --state STATE --url U --wallet W [--brand ALIPAY] [--amount 1000]
//                         [--pay-calls FILE]
//                         one thread per device of STATE, each paying by QR back to back: the device makes
//                         the order (POST /terminal/v1/apm/qr/payments), the customer pays it through the
//                         wallet's API (POST W/api/orders/{id}/pay, answered once the host took the
//                         notification: its latency, in ns, one per line, written to --pay-calls), and
//                         the device's next poll reads CLEARED. A request is one whole QR payment.
//   bench-load blik       --state STATE --url U --wallet W --customers C1,C2,… [--amount 100] [--pay-calls FILE]
//                         as apm, by BLIK: before each payment the device's customer (one per device) gets
//                         a code from the bank app's API (POST W/api/blik/codes), the device pays with it
//                         (POST /terminal/v1/apm/blik/payments), the customer approves the request.
//                         apm and blik take [--rate R]: R payments a second in all, each device at its own
//                         steady pace, instead of back to back.
//   bench-load get        --url U --token T --path P [--path P2 …] [--pages 1-50] [--connections 2]
//                         [--expect-contains S] [--warmup-requests N]
//                         GETs the paths in turn (`{page}` becomes a random page); with --warmup-requests,
//                         each connection warms up with N requests, then records for --duration.
//   bench-load raw-sqlite --schema-from HOSTDB --db NEW --terminals T1,… --merchant M [--threads 32]
//                         [--writer row|store]
//                         one durable INSERT of a transaction row per transaction, WAL, the schema copied
//                         from the host's database. --writer row (the default): one commit per row with
//                         synchronous=FULL, threads sharing one connection under a lock. --writer store:
//                         each row one write of the host's own Store (rows that wait meanwhile share a
//                         commit, the WAL synced beside the next commit), each caller returning once its
//                         row is durable.
//   bench-load raw-query  --db HOSTDB --terminal T --query history|count|stats-daily|stats-brand|approved-after
//                         [--from-ms MS] [--to-ms MS] [--pages 1-50] [--connections 1] [--warmup-requests N]
//                         the SQL of one history endpoint (count and statistics from the hour and day
//                         totals, as the host reads them), run in-process on read-only connections.
//   bench-load explain    --db HOSTDB --terminal T [--from-ms MS] [--to-ms MS]
//                         EXPLAIN QUERY PLAN of every statement raw-query runs.
//   bench-load seed       --db HOSTDB --terminal T --merchant M --rows N --now-ms MS [--days 90] [--currency EUR]
//                         bulk-inserts N realistic transactions of one terminal, spread over the last days
//                         (through the host's triggers, which keep its hour and day totals).
//
// Measuring commands take [--warmup S] [--duration S] [--label NAME] [--latencies FILE] and print one
// JSON object: requests, seconds, rps, p50_ms, p90_ms, p99_ms, max_ms, mean_ms, failures,
// failure_samples, warmup_requests. Requests are recorded by start time after the warm-up.
// Timings are for reading, never asserted.
import CardPayload

// MARK: - main

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
switch arguments.command {
case "setup": setup(arguments)
case "sale": sale(arguments)
case "apm": apm(arguments)
case "blik": blik(arguments)
case "get": get(arguments)
case "seed": seed(arguments)
case "raw-sqlite": rawSQLite(arguments)
case "raw-query": rawQuery(arguments)
case "explain": explain(arguments)
default:
    fail("usage: bench-load setup|sale|apm|blik|get|seed|raw-sqlite|raw-query|explain [--option value …] (see bench/Tools/BenchLoad/main.swift; one file per command)")
}
