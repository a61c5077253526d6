s = "hello world, hello"
print(s.startswith("world", 6), s.startswith("hello", 1), s.startswith(("x", "wor"), 6, 9))
print(s.startswith("wor", 6, 8), s.endswith("world", 0, 11), s.endswith("hello", -5))
print(s.startswith("", 18), s.startswith("", 19), s.endswith("", 30))
print(s.count("l"), s.count("l", 5), s.count("l", 3, 10), s.count("hello", -5), s.count("", 2, 5))
print(s.count("o", None, 8), s.startswith("h", None), "héllo wörld".startswith("wö", 6))
print("a\nb\nc".count("\n", 0, 3), "ünï".count("ï", 1), "ünï".endswith("n", 0, 2))
