d = {}
del d["z"]
