class ConfigError(Exception):
    pass
def load(s):
    try:
        return int(s)
    except ValueError as e:
        raise ConfigError("bad config: " + s) from e
try:
    load("abc")
except ConfigError as e:
    print("caught", e)
    print("cause:", type(e.__cause__).__name__, e.__cause__)
