import torch
w = torch.tensor(3., requires_grad=True)
if w < 10**1000:
    print(w)
