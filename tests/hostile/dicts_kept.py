# expect: MemoryError
# env: ARGS=--time-limit 120
# env: CUDATUTOR_HOST_MEM_LIMIT=512M
keep = []
while True:
    keep.append(dict.fromkeys(range(10**6)))
