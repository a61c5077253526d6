import json
import os

config = {"epochs": 3, "batch_size": 64, "hidden": [128, 64]}
with open("config_test.json", "w") as f:
    json.dump(config, f, indent=2)
with open("config_test.json") as f:
    print(f.read())
with open("config_test.json") as f:
    loaded = json.load(f)
print(loaded, loaded == config)
print(os.path.exists("config_test.json"), os.path.getsize("config_test.json"))
os.remove("config_test.json")
print(os.path.exists("config_test.json"))
