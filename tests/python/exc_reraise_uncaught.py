try:
    {}["missing"]
except KeyError:
    print("cleanup then re-raise")
    raise
