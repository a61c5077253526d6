print("a\tb")
print("back\\slash")
print(r"raw\n")
print("quote\"inside")
print('single\'q')
print("""triple
quoted""")
print("uni\u00e9")
print(len("\n"), len(r"\n"))
