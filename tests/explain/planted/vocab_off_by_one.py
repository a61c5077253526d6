# A bag-of-words model; unknown words get the id len(vocab), which has no row.
import torch
import torch.nn as nn

device = 'cuda'
train = ['the cat sat', 'the dog ran']
vocab = {}
for sentence in train:
    for word in sentence.split():
        vocab.setdefault(word, len(vocab))
UNK = len(vocab)


class BagOfWords(nn.Module):
    def __init__(self, n_words, dim, n_classes):
        super().__init__()
        self.emb = nn.Embedding(n_words, dim)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, ids):
        vectors = self.emb(ids)  # origin
        return self.out(vectors.mean(dim=1))


model = BagOfWords(len(vocab), 4, 2).to(device)
batch = ['the cat ran', 'a dog sat']
ids = torch.tensor([[vocab.get(w, UNK) for w in s.split()] for s in batch], device=device)  # entered
scores = model(ids)
print(scores.argmax(dim=1).tolist())
