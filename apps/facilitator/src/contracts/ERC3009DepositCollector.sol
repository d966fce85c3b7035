// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

/// The ERC-3009 call of a token that lets the payee pull a signed transfer.
interface IERC3009Receive {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external;
}

/// @title ERC3009DepositCollector
/// @notice Development and test only: the x402 `batch-settlement` deposit collector for tokens
/// with ERC-3009 (USDC), written for the local chain to the collector data the official x402
/// EVM facilitator sends. The payer signs a `ReceiveWithAuthorization` of the deposit to this
/// contract whose nonce is `keccak256(abi.encode(channelId, salt))`, so the signature is good
/// for one deposit into one channel; ERC-3009 lets only the payee (`to`) submit it, so this
/// contract pulls the tokens and forwards them to the settlement contract, which credits the
/// channel. Only the settlement contract may call `collect`: anyone else could pull a signed
/// deposit here without a channel being credited.
/// It is installed as code at the address the x402 packages expect,
/// 0x4020806089470a89826cB9fB1f4059150b550004, and keeps no constructor state: the settlement
/// contract's address is a constant.
contract ERC3009DepositCollector {
    /// The x402 batch-settlement contract, at the address the x402 packages use.
    address public constant SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error OnlySettlement();
    /// A signature that is not 65 bytes (the token takes `v`, `r`, `s`).
    error InvalidSignatureLength();
    /// The token's `transfer` failed without saying why, or answered `false`.
    error TransferFailed();

    /// Pull `amount` of `token` from `payer` on its ERC-3009 authorization and pass it to the
    /// settlement contract. `collectorData` is `abi.encode(validAfter, validBefore, salt,
    /// signature)`; the token checks the time window, the nonce and the signature.
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
    {
        if (msg.sender != SETTLEMENT) revert OnlySettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        _receive(token, payer, amount, validAfter, validBefore, keccak256(abi.encode(channelId, salt)), signature);
        (bool ok, bytes memory answer) =
            token.call(abi.encodeWithSignature("transfer(address,uint256)", SETTLEMENT, amount));
        if (!ok || (answer.length != 0 && (answer.length != 32 || !abi.decode(answer, (bool))))) {
            revert TransferFailed();
        }
    }

    /// `receiveWithAuthorization` of the payer's transfer to this contract, the signature split
    /// into the `v`, `r`, `s` the token takes.
    function _receive(
        address token,
        address payer,
        uint256 amount,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        if (signature.length != 65) revert InvalidSignatureLength();
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        IERC3009Receive(token).receiveWithAuthorization(payer, address(this), amount, validAfter, validBefore, nonce, v, r, s);
    }
}
