y = ", ".join(str(1/x) for x in [0])
