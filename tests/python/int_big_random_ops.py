# Pseudo-random ints of up to ~600 bits (a fixed LCG, so CPython and cudatutor see the same
# numbers) through every int operator; printed in full so any digit that differs shows.
state = 12345
def rnd(bits):
    global state
    x = 0
    for _ in range(bits // 31 + 1):
        state = (state * 1103515245 + 12345) % 2 ** 31
        x = (x << 31) | state
    x >>= (31 * (bits // 31 + 1) - bits)
    state = (state * 1103515245 + 12345) % 2 ** 31
    return -x if state % 3 == 0 else x
for i in range(40):
    a = rnd(20 + (i * 37) % 600)
    b = rnd(1 + (i * 53) % 300) or 7
    s = (i * 11) % 130
    print(i, a + b, a - b, a * b, a // b, a % b, -a, ~b, abs(a))
    print(i, a << s, a >> s, a & b, a | b, a ^ b, a == b, a < b, a >= b)
    print(i, a / b, float(a), a > float(b), a == float(a), hash(a), hash(b), hex(a), pow(abs(a) + 2, abs(b) % 1000 + 1, abs(b) + 2))
    print(i, divmod(a, b), divmod(b, a) if a else None, round(a, -(i % 40)), a ** (i % 7), str(a)[::-1][:30], f"{b:,}")
