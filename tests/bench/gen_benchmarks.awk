# gen_benchmarks.awk — seeded benchmark rows in the KB's benchmarks.csv columns (kb/data/README.md),
# for the benchmarks and the crash and concurrency tests.  Same arguments, same bytes.
#   awk -v n=1000 -v seed=42 -v prefix=synth -v gpus=rtx-3090,a100-sxm4-80gb \
#       -v source=lambda-gpu-benchmarks -f gen_benchmarks.awk >rows.csv
BEGIN {
    if (n == "") n = 1000
    if (seed == "") seed = 42
    if (prefix == "") prefix = "synth"
    if (gpus == "") gpus = "rtx-3090"
    if (source == "") source = "lambda-gpu-benchmarks"
    ngpu = split(gpus, gpu, ",")
    split("fp32 fp16 bf16 tf32 amp", prec, " ")
    srand(seed)
    print "gpu,gpu_count,workload,metric,value,unit,precision,batch,framework,interconnect,power_w,source,note"
    for (i = 1; i <= n; i++) {
        g = gpu[1 + int(rand() * ngpu)]
        count = 2 ^ int(rand() * 4)
        link = ""
        if (count > 1) link = "nvlink"
        power = ""
        if (rand() < 0.3) power = int(200 + rand() * 500)
        printf "%s,%d,%s-%d,train_throughput,%.2f,images/s,%s,%d,pytorch,%s,%s,%s,run %d\n",
            g, count, prefix, i % 5000, 10 + rand() * 5000, prec[1 + int(rand() * 5)],
            2 ^ (3 + int(rand() * 6)), link, power, source, i
    }
}
