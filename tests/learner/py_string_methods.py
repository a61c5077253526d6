import torch

text = "the cat sat on the mat"
words = text.split()
vocab = {w: i for i, w in enumerate(sorted(set(words)))}
print(vocab)
ids = torch.tensor([vocab[w] for w in words])
print(ids)
print(" ".join(w.upper() for w in words[:3]))
print(text.replace("cat", "dog").title(), text.count("the"))
print(f"{'|'.join(str(i) for i in ids.tolist())}")
