import torch


def train(epochs):
    w = torch.zeros(1)
    for e in range(epochs):
        w += 0.5
    return w


def main():
    print("starting")
    print(train(3))


if __name__ == "__main__":
    main()
