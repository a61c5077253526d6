

# ---- torch.nn, continued (src/torch/nn_attention.py): MultiheadAttention as PyTorch 2.15's
# torch/nn/modules/activation.py builds it and F.multi_head_attention_forward computes it
# (the path that returns the attention weights, with its masks).


class NonDynamicallyQuantizableLinear(Linear):
    pass


def _f_multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                    bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                    training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                    use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                    v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                    is_causal=False):
    is_batched = query.dim() == 3
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, 'key_padding_mask', query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError('Need attn_mask if specifying the is_causal hint. You may use the Transformer module '
                           'method `generate_square_subsequent_mask` to create this mask.')
    attn_mask = _canonical_mask(attn_mask, 'attn_mask', query.dtype)
    head_dim = embed_dim // num_heads
    E = embed_dim
    if use_separate_proj_weight:
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q = functional.linear(query, q_proj_weight, b_q)
        k = functional.linear(key, k_proj_weight, b_k)
        v = functional.linear(value, v_proj_weight, b_v)
    elif key is value:
        if query is key:
            proj = functional.linear(query, in_proj_weight, in_proj_bias)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            q, k, v = proj[0], proj[1], proj[2]
        else:
            w_q, w_kv = in_proj_weight.split([E, E * 2])
            b_q, b_kv = (None, None) if in_proj_bias is None else in_proj_bias.split([E, E * 2])
            q = functional.linear(query, w_q, b_q)
            kv = functional.linear(key, w_kv, b_kv)
            kv = kv.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            k, v = kv[0], kv[1]
    else:
        w_q, w_k, w_v = in_proj_weight.chunk(3)
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q = functional.linear(query, w_q, b_q)
        k = functional.linear(key, w_k, b_k)
        v = functional.linear(value, w_v, b_v)
    if attn_mask is not None:
        # a 2-D mask is shared by every batch entry and head
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f'The shape of the 2D attn_mask is {attn_mask.shape}, but should be '
                                   f'{(tgt_len, src_len)}.')
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f'The shape of the 3D attn_mask is {attn_mask.shape}, but should be '
                                   f'{(bsz * num_heads, tgt_len, src_len)}.')
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        # (PyTorch repeats the biases; for the module's (1, 1, E) biases an expand has the same
        # values and a gradient the engine computes)
        def _along_batch(bias):
            if bias.dim() == 3 and bias.shape[0] == 1 and bias.shape[1] == 1:
                return bias.expand(1, bsz, bias.shape[2])
            return bias.repeat(1, bsz, 1)
        k = torch.cat([k, _along_batch(bias_k)])
        v = torch.cat([v, _along_batch(bias_v)])
        if attn_mask is not None:
            attn_mask = functional.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = functional.pad(key_padding_mask, (0, 1))
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = torch.cat([k, torch.zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = torch.cat([v, torch.zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = functional.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = functional.pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f'Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}')
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f'Expected key_padded_mask.shape[1] to be {src_len}, but got '
                                 f'{key_padding_mask.shape[1]}')
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    B, Nt, Eh = q.shape
    q_scaled = q * math.sqrt(1.0 / float(Eh))
    weights = torch.bmm(q_scaled, k.transpose(-2, -1))
    if attn_mask is not None:
        # baddbmm(attn_mask, q, k^T): the mask added to the products
        weights = attn_mask + weights
    weights = functional.softmax(weights, dim=-1)
    if dropout_p > 0.0:
        weights = functional.dropout(weights, p=dropout_p)
    out = torch.bmm(weights, v)
    out = out.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
    out = functional.linear(out, out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    if not need_weights:
        return (out if is_batched else out.squeeze(1)), None
    weights = weights.view(bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.mean(dim=1)
    if not is_batched:
        out = out.squeeze(1)
        weights = weights.squeeze(0)
    return out, weights


def _canonical_mask(mask, mask_name, target_type):
    # F._canonical_mask: a bool mask becomes a float one with -inf where it is True
    if mask is None:
        return None
    if mask.dtype != torch.bool and not mask.is_floating_point():
        raise AssertionError(f'only bool and floating types of {mask_name} are supported')
    if not mask.is_floating_point():
        mask = torch.zeros_like(mask, dtype=target_type).masked_fill(mask, float('-inf'))
    return mask


_PY_FUNCTIONAL = _PY_FUNCTIONAL + ['multi_head_attention_forward']


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, device=None, dtype=None):
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f'embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and '
                             f'num_heads={num_heads} instead')
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        assert self.head_dim * num_heads == self.embed_dim, 'embed_dim must be divisible by num_heads'
        kw = {'device': device, 'dtype': dtype}
        if not self._qkv_same_embed_dim:
            self.q_proj_weight = Parameter(torch.empty((embed_dim, embed_dim), **kw))
            self.k_proj_weight = Parameter(torch.empty((embed_dim, self.kdim), **kw))
            self.v_proj_weight = Parameter(torch.empty((embed_dim, self.vdim), **kw))
            self.register_parameter('in_proj_weight', None)
        else:
            self.in_proj_weight = Parameter(torch.empty((3 * embed_dim, embed_dim), **kw))
            self.register_parameter('q_proj_weight', None)
            self.register_parameter('k_proj_weight', None)
            self.register_parameter('v_proj_weight', None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * embed_dim, **kw))
        else:
            self.register_parameter('in_proj_bias', None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, **kw)
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), **kw))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), **kw))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        import torch.nn.init as init
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        is_batched = query.dim() == 3
        if self.batch_first and is_batched:
            if key is value:
                if query is key:
                    query = key = value = query.transpose(1, 0)
                else:
                    query, key = (x.transpose(1, 0) for x in (query, key))
                    value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = functional.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight, self.out_proj.bias,
            training=self.training, key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, use_separate_proj_weight=separate,
            q_proj_weight=self.q_proj_weight if separate else None,
            k_proj_weight=self.k_proj_weight if separate else None,
            v_proj_weight=self.v_proj_weight if separate else None,
            average_attn_weights=average_attn_weights, is_causal=is_causal)
        if self.batch_first and is_batched:
            return out.transpose(1, 0), weights
        return out, weights


def _clone_module(m):
    # copy.deepcopy of a module (_get_clones): parameters and buffers copied, submodules cloned
    new = object.__new__(type(m))
    for k, v in m.__dict__.items():
        new.__dict__[k] = v
    params = _coll.OrderedDict()
    for name, p in m._parameters.items():
        params[name] = None if p is None else Parameter(p.detach().clone(), requires_grad=p.requires_grad)
    buffers = _coll.OrderedDict()
    for name, b in m._buffers.items():
        buffers[name] = None if b is None else b.clone()
    modules = _coll.OrderedDict()
    for name, sub in m._modules.items():
        modules[name] = None if sub is None else _clone_module(sub)
    new.__dict__['_parameters'] = params
    new.__dict__['_buffers'] = buffers
    new.__dict__['_modules'] = modules
    for name, v in list(params.items()) + list(buffers.items()) + list(modules.items()):
        if name in new.__dict__:
            new.__dict__[name] = v
    return new


def _get_activation_fn(activation):
    if activation == 'relu':
        return functional.relu
    if activation == 'gelu':
        return functional.gelu
    raise RuntimeError(f'activation should be relu/gelu, not {activation}')


class TransformerEncoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=functional.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        kw = {'device': device, 'dtype': dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **kw)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        if activation is functional.relu or isinstance(activation, ReLU):
            self.activation_relu_or_gelu = 1
        elif activation is functional.gelu or isinstance(activation, GELU):
            self.activation_relu_or_gelu = 2
        else:
            self.activation_relu_or_gelu = 0
        self.activation = activation

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            x = x + self._ff_block(self.norm2(x))
        else:
            x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
            x = self.norm2(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False,
                           is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=functional.relu,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        kw = {'device': device, 'dtype': dtype}
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias, **kw)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, bias=bias,
                                                 **kw)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) else activation

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask, memory_key_padding_mask, memory_is_causal)
            x = x + self._ff_block(self.norm3(x))
        else:
            x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
            x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask, memory_is_causal))
            x = self.norm3(x + self._ff_block(x))
        return x

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, is_causal=is_causal,
                           need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                is_causal=is_causal, need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)


class TransformerEncoder(Module):
    def __init__(self, encoder_layer, num_layers, norm=None, enable_nested_tensor=True, mask_check=True):
        super().__init__()
        self.layers = ModuleList([_clone_module(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal=None):
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        if self.norm is not None:
            output = self.norm(output)
        return output


class TransformerDecoder(Module):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = ModuleList([_clone_module(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal=None, memory_is_causal=False):
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask, memory_is_causal=memory_is_causal)
        if self.norm is not None:
            output = self.norm(output)
        return output


class Transformer(Module):
    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation=functional.relu, custom_encoder=None, custom_decoder=None,
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True, device=None, dtype=None):
        super().__init__()
        kw = {'device': device, 'dtype': dtype}
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            encoder_layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **kw)
            encoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
            self.encoder = TransformerEncoder(encoder_layer, num_encoder_layers, encoder_norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            decoder_layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                                    layer_norm_eps, batch_first, norm_first, bias, **kw)
            decoder_norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
            self.decoder = TransformerDecoder(decoder_layer, num_decoder_layers, decoder_norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                tgt_key_padding_mask=None, memory_key_padding_mask=None, src_is_causal=None, tgt_is_causal=None,
                memory_is_causal=False):
        is_batched = src.dim() == 3
        if not self.batch_first and src.size(1) != tgt.size(1) and is_batched:
            raise RuntimeError('the batch number of src and tgt must be equal')
        elif self.batch_first and src.size(0) != tgt.size(0) and is_batched:
            raise RuntimeError('the batch number of src and tgt must be equal')
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError('the feature number of src and tgt must be equal to d_model')
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask, tgt_is_causal=tgt_is_causal,
                            memory_is_causal=memory_is_causal)

    def _reset_parameters(self):
        import torch.nn.init as init
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
