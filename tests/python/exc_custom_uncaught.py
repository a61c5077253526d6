class TrainingError(Exception):
    pass
def step(i):
    if i == 2:
        raise TrainingError(f"loss diverged at step {i}")
    print("step", i)
for i in range(5):
    step(i)
