s = "Hello, World"
print(s.upper(), s.lower())
print(s.title(), "hello world".capitalize())
print(s.swapcase())
print(s.startswith("Hell"), s.endswith("ld"), s.startswith(("x", "H")))
print(s.find("o"), s.rfind("o"), s.find("z"))
print(s.index("W"), s.count("l"))
print("abc".isalpha(), "123".isdigit(), "a1".isalnum(), "  ".isspace())
print("Hi".isupper(), "hi".islower())
