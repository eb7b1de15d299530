# gen_offers.awk — seeded cloud offers in the KB's prices.csv columns (kb/data/README.md), for
# the benchmarks.  Same arguments, same bytes.
#   awk -v n=100000 -v seed=42 -v gpus=rtx-3090,h100-sxm5 -v source=ID -f gen_offers.awk
BEGIN {
    if (n == "") n = 100000
    if (seed == "") seed = 42
    if (gpus == "") gpus = "rtx-3090"
    if (source == "") source = "lambda-gpu-benchmarks"
    ngpu = split(gpus, gpu, ",")
    split("us-east us-west eu-central ap-south", region, " ")
    srand(seed)
    print "gpu,kind,amount,currency,unit,gpu_count,region,provider,instance,spot,as_of,source,note"
    for (i = 1; i <= n; i++) {
        g = gpu[1 + int(rand() * ngpu)]
        count = 2 ^ int(rand() * 4)
        printf "%s,cloud,%.4f,USD,hour,%d,%s,bench-cloud-%d,inst-%d.%dx,%d,2026-0%d,%s,offer %d\n",
            g, count * (0.2 + rand() * 4), count, region[1 + int(rand() * 4)], i % 40, i, count,
            rand() < 0.3, 1 + int(rand() * 9), source, i
    }
}
