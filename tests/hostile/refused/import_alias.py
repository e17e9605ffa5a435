import torch as t
w = t.tensor(1.)
