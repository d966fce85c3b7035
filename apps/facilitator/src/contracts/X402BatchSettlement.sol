// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// The token calls the settlement contract makes.
interface IERC20Balance {
    function balanceOf(address account) external view returns (uint256);
}

/// What a deposit collector does for `deposit`: move exactly `amount` of `token` from `payer`
/// to this contract, on the payer's authorization in `collectorData`, bound to `channelId`.
interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external;
}

/// @title X402BatchSettlement
/// @notice Development and test only: the x402 `batch-settlement` channel contract, written for
/// the local chain to the interface the official x402 EVM client, server and facilitator call.
/// A payer deposits into a channel, identified by the EIP-712 hash of its immutable
/// `ChannelConfig`, once (through a deposit collector); each paid call then carries a voucher,
/// the payer's EIP-712 signature over the channel and a cumulative ceiling. The receiver side
/// redeems vouchers in batches: a claim raises the channel's `totalClaimed` to the claim's
/// cumulative total (never above the voucher's ceiling or the balance, never down), and adds
/// the difference to what the receiver may take out of the contract with `settle`. What is not
/// claimed goes back to the payer: by a cooperative refund from the receiver side, or by the
/// payer's own withdrawal after the channel's delay (which gives the receiver time to claim).
/// Funds leave only through `settle` (claimed, to the receiver, once), `refund`/
/// `refundWithSignature` and `finalizeWithdraw` (unclaimed, to the payer), so no amount is
/// paid out twice.
/// It is installed as code at the address the x402 packages expect,
/// 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003, and keeps no constructor state: its EIP-712
/// domain is computed from its own address and the chain id, and the reentrancy lock starts
/// open at zero.
contract X402BatchSettlement {
    /// A channel's identity: fixed at its first deposit, hashed into its id.
    struct ChannelConfig {
        address payer;
        /// Signs the vouchers (ECDSA only); zero: the payer signs, as an EOA or by EIP-1271.
        address payerAuthorizer;
        address receiver;
        /// Authorizes claims and refunds by signature, or calls `claim`/`refund` itself.
        address receiverAuthorizer;
        address token;
        /// Seconds between a payer's withdrawal request and its payout.
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct ChannelState {
        /// Deposited, less what was refunded or withdrawn (claimed amounts stay in it).
        uint128 balance;
        /// The cumulative amount claimed for the receiver; at most `balance`.
        uint128 totalClaimed;
    }

    struct WithdrawalState {
        uint128 amount;
        /// When the payer asked (seconds since the epoch); zero: nothing pending.
        uint40 initiatedAt;
    }

    struct ReceiverState {
        /// Claimed for this receiver in this token, over all its channels.
        uint128 totalClaimed;
        /// Of that, already paid out by `settle`.
        uint128 totalSettled;
    }

    /// What the payer (or its authorizer) signs: a cumulative ceiling for a channel.
    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    /// A voucher with its signature, and the cumulative total to claim with it (at most the ceiling).
    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    uint40 public constant MIN_WITHDRAW_DELAY = 15 minutes;
    uint40 public constant MAX_WITHDRAW_DELAY = 30 days;

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 public constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 public constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant NAME_HASH = keccak256("x402 Batch Settlement");
    bytes32 private constant VERSION_HASH = keccak256("1");

    /// secp256k1n / 2: a larger `s` is the malleable twin of a valid signature (EIP-2).
    uint256 private constant MAX_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// `isValidSignature(bytes32,bytes)`'s answer for a good signature (EIP-1271).
    bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;

    mapping(bytes32 channelId => ChannelState) public channels;
    mapping(bytes32 channelId => uint256) public refundNonce;
    mapping(bytes32 channelId => WithdrawalState) public pendingWithdrawals;
    mapping(address receiver => mapping(address token => ReceiverState)) public receivers;

    /// 1 while a state-changing call runs: a token or collector that calls back cannot re-enter.
    uint256 private _locked;

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newBalance);
    event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 finalizeAfter);
    event WithdrawFinalized(bytes32 indexed channelId, uint128 amount, address sender);

    /// A config with a zero payer, receiver, receiver authorizer or token.
    error InvalidChannel();
    error ZeroDeposit();
    error DepositOverflow();
    error InvalidCollector();
    /// The collector did not bring exactly the amount into this contract.
    error DepositCollectionFailed();
    /// A voucher or authorizer signature that does not check out.
    error InvalidSignature();
    /// A claim batch whose rows name different receiver authorizers.
    error NotReceiverAuthorizer();
    error NotAuthorizedToClaim();
    error NotAuthorizedToRefund();
    error NotAuthorizedToWithdraw();
    error EmptyBatch();
    /// A claim above the voucher's ceiling.
    error ClaimExceedsCeiling();
    /// A claim above the channel's balance.
    error ClaimExceedsBalance();
    /// A claim below what the channel has claimed already: cumulative totals only go up.
    error ClaimBelowClaimed();
    error WithdrawDelayOutOfRange();
    error NothingToWithdraw();
    error WithdrawalAlreadyPending();
    error WithdrawalNotPending();
    error WithdrawDelayNotElapsed();
    error InvalidRefundNonce();
    error ZeroRefund();
    /// The token's `transfer` failed without saying why, or answered `false`.
    error TransferFailed();
    error ReentrancyGuardReentrantCall();

    modifier nonReentrant() {
        if (_locked == 1) revert ReentrancyGuardReentrantCall();
        _locked = 1;
        _;
        _locked = 0;
    }

    // ------------------------------------------------------------------ deposits

    /// Add `amount` to the channel of `config`, brought in by `collector` from the payer on the
    /// authorization in `collectorData`. Anyone may submit it; the authorization is the payer's.
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        _validateConfig(config);
        if (amount == 0) revert ZeroDeposit();
        if (collector == address(0)) revert InvalidCollector();

        bytes32 channelId = getChannelId(config);
        ChannelState storage ch = channels[channelId];
        bool isNew = ch.balance == 0 && ch.totalClaimed == 0;
        if (amount > type(uint128).max - ch.balance) revert DepositOverflow();
        ch.balance += amount;
        if (isNew) emit ChannelCreated(channelId, config);
        emit Deposited(channelId, msg.sender, amount, ch.balance);

        uint256 before = IERC20Balance(config.token).balanceOf(address(this));
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        if (IERC20Balance(config.token).balanceOf(address(this)) != before + amount) {
            revert DepositCollectionFailed();
        }
    }

    // ------------------------------------------------------------------ claims and settlement

    /// Apply voucher claims; the caller must be the receiver or the receiver authorizer of
    /// every row's channel.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        if (voucherClaims.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < voucherClaims.length; ++i) {
            if (!_isReceiverSide(msg.sender, voucherClaims[i].voucher.channel)) revert NotAuthorizedToClaim();
            _processVoucherClaim(voucherClaims[i]);
        }
    }

    /// Apply voucher claims on the receiver authorizer's EIP-712 `ClaimBatch` signature over
    /// every row's channel id, ceiling and total; anyone may submit it. All rows must name the
    /// same receiver authorizer.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        if (voucherClaims.length == 0) revert EmptyBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        if (!_isValidSignatureNow(authorizer, _hashTypedData(_claimBatchStructHash(voucherClaims)), authorizerSignature))
        {
            revert InvalidSignature();
        }
        for (uint256 i = 0; i < voucherClaims.length; ++i) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert NotReceiverAuthorizer();
            _processVoucherClaim(voucherClaims[i]);
        }
    }

    /// Pay `receiver` everything claimed for it in `token` and not yet paid. Anyone may call;
    /// with nothing to pay it does nothing.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverState storage rs = receivers[receiver][token];
        uint128 amount = rs.totalClaimed - rs.totalSettled;
        if (amount == 0) return;
        rs.totalSettled = rs.totalClaimed;
        _transfer(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    // ------------------------------------------------------------------ the payer's withdrawal

    /// Ask to withdraw up to `amount` of the unclaimed balance after the channel's delay. Only
    /// the payer or its authorizer; one request at a time.
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert NotAuthorizedToWithdraw();
        if (amount == 0) revert NothingToWithdraw();
        bytes32 channelId = getChannelId(config);
        WithdrawalState storage ws = pendingWithdrawals[channelId];
        if (ws.initiatedAt != 0) revert WithdrawalAlreadyPending();
        ws.amount = amount;
        ws.initiatedAt = uint40(block.timestamp);
        emit WithdrawInitiated(channelId, amount, uint40(block.timestamp) + config.withdrawDelay);
    }

    /// Pay the payer the requested amount, capped to what is unclaimed now, once the delay has
    /// passed. Only the payer or its authorizer.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert NotAuthorizedToWithdraw();
        bytes32 channelId = getChannelId(config);
        WithdrawalState storage ws = pendingWithdrawals[channelId];
        if (ws.initiatedAt == 0) revert WithdrawalNotPending();
        if (block.timestamp < uint256(ws.initiatedAt) + uint256(config.withdrawDelay)) {
            revert WithdrawDelayNotElapsed();
        }
        ChannelState storage ch = channels[channelId];
        uint128 available = ch.balance - ch.totalClaimed;
        uint128 amount = ws.amount > available ? available : ws.amount;
        ws.amount = 0;
        ws.initiatedAt = 0;
        ch.balance -= amount;
        emit WithdrawFinalized(channelId, amount, msg.sender);
        if (amount > 0) _transfer(config.token, config.payer, amount);
    }

    // ------------------------------------------------------------------ cooperative refunds

    /// Give the payer back up to `amount` of the unclaimed balance. Only the receiver or the
    /// receiver authorizer.
    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (!_isReceiverSide(msg.sender, config)) revert NotAuthorizedToRefund();
        _executeRefund(config, amount);
    }

    /// `refund` on the receiver authorizer's EIP-712 `Refund(channelId, nonce, amount)`
    /// signature; anyone may submit it. `nonce` must be the channel's `refundNonce`, which each
    /// refund that pays out advances, so a signature refunds at most once.
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert InvalidRefundNonce();
        bytes32 digest = _hashTypedData(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
        if (!_isValidSignatureNow(config.receiverAuthorizer, digest, receiverAuthorizerSignature)) {
            revert InvalidSignature();
        }
        _executeRefund(config, amount);
    }

    // ------------------------------------------------------------------ batching

    /// Run several calls to this contract in one transaction (each as if sent directly, by the
    /// same sender); the first that fails reverts them all with its own reason.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; ++i) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly {
                    revert(add(result, 0x20), mload(result))
                }
            }
            results[i] = result;
        }
    }

    // ------------------------------------------------------------------ views

    /// The EIP-712 domain: name "x402 Batch Settlement", version "1", this chain, this address.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// A channel's id: the EIP-712 hash of its config under this contract's domain.
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _hashTypedData(
            keccak256(
                abi.encode(
                    CHANNEL_CONFIG_TYPEHASH,
                    config.payer,
                    config.payerAuthorizer,
                    config.receiver,
                    config.receiverAuthorizer,
                    config.token,
                    config.withdrawDelay,
                    config.salt
                )
            )
        );
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) external view returns (bytes32) {
        return _hashTypedData(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) external view returns (bytes32) {
        return _hashTypedData(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) external view returns (bytes32) {
        return _hashTypedData(_claimBatchStructHash(voucherClaims));
    }

    // ------------------------------------------------------------------ internals

    /// One claim row: the total must not go down, nor above the voucher's ceiling or the
    /// balance, and the voucher must be signed by the payer authorizer (ECDSA) or, when that
    /// is zero, by the payer (ECDSA, or EIP-1271 for a contract). A total equal to the
    /// channel's moves nothing.
    function _processVoucherClaim(VoucherClaim calldata vc) private {
        ChannelConfig calldata config = vc.voucher.channel;
        bytes32 channelId = getChannelId(config);
        ChannelState storage ch = channels[channelId];
        uint128 previous = ch.totalClaimed;
        if (vc.totalClaimed < previous) revert ClaimBelowClaimed();
        if (vc.totalClaimed > vc.voucher.maxClaimableAmount) revert ClaimExceedsCeiling();
        if (vc.totalClaimed > ch.balance) revert ClaimExceedsBalance();

        bytes32 digest = _hashTypedData(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, vc.voucher.maxClaimableAmount)));
        bool signed = config.payerAuthorizer != address(0)
            ? _recover(digest, vc.signature) == config.payerAuthorizer
            : _isValidSignatureNow(config.payer, digest, vc.signature);
        if (!signed) revert InvalidSignature();

        uint128 delta = vc.totalClaimed - previous;
        if (delta == 0) return;
        ch.totalClaimed = vc.totalClaimed;
        receivers[config.receiver][config.token].totalClaimed += delta;
        emit Claimed(channelId, msg.sender, delta, vc.totalClaimed);
    }

    /// Pay the payer `amount`, capped to the unclaimed balance; a pending withdrawal is
    /// cancelled and the refund nonce advances. Capped to zero, it does nothing.
    function _executeRefund(ChannelConfig calldata config, uint128 amount) private {
        if (amount == 0) revert ZeroRefund();
        bytes32 channelId = getChannelId(config);
        ChannelState storage ch = channels[channelId];
        uint128 available = ch.balance - ch.totalClaimed;
        uint128 refunded = amount > available ? available : amount;
        if (refunded == 0) return;
        ch.balance -= refunded;
        delete pendingWithdrawals[channelId];
        unchecked {
            refundNonce[channelId]++;
        }
        emit Refunded(channelId, msg.sender, refunded);
        _transfer(config.token, config.payer, refunded);
    }

    function _validateConfig(ChannelConfig calldata config) private pure {
        if (
            config.payer == address(0) || config.receiver == address(0) || config.receiverAuthorizer == address(0)
                || config.token == address(0)
        ) revert InvalidChannel();
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) {
            revert WithdrawDelayOutOfRange();
        }
    }

    function _isReceiverSide(address sender, ChannelConfig calldata config) private pure returns (bool) {
        return sender == config.receiver || sender == config.receiverAuthorizer;
    }

    /// EIP-712 `hashStruct(ClaimBatch)`: the array member is the hash of its entries' hashes.
    function _claimBatchStructHash(VoucherClaim[] calldata voucherClaims) private view returns (bytes32) {
        bytes32[] memory entries = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; ++i) {
            entries[i] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH,
                    getChannelId(voucherClaims[i].voucher.channel),
                    voucherClaims[i].voucher.maxClaimableAmount,
                    voucherClaims[i].totalClaimed
                )
            );
        }
        return keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries))));
    }

    function _hashTypedData(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    /// An address with code is asked (EIP-1271); any other must have signed with its key.
    function _isValidSignatureNow(address signer, bytes32 digest, bytes calldata signature)
        private
        view
        returns (bool)
    {
        if (signer.code.length == 0) return signer != address(0) && _recover(digest, signature) == signer;
        (bool ok, bytes memory answer) =
            signer.staticcall(abi.encodeWithSelector(ERC1271_MAGIC_VALUE, digest, signature));
        return ok && answer.length == 32 && abi.decode(answer, (bytes4)) == ERC1271_MAGIC_VALUE;
    }

    /// The signer of a 65-byte ECDSA signature with a low `s` and `v` 27 or 28; zero otherwise.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > MAX_S || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// `token.transfer(to, amount)`, for tokens that answer `true` and for those that answer
    /// nothing; the token's own revert reason is passed on.
    function _transfer(address token, address to, uint256 amount) private {
        if (token.code.length == 0) revert TransferFailed();
        (bool ok, bytes memory answer) = token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
        if (!ok) {
            if (answer.length == 0) revert TransferFailed();
            assembly {
                revert(add(answer, 0x20), mload(answer))
            }
        }
        if (answer.length != 0 && (answer.length != 32 || !abi.decode(answer, (bool)))) revert TransferFailed();
    }
}
