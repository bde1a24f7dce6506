名前 = "日本語の文字列"
café = "naïve — ✓ 😀"
block "ラベル" {
  ключ = "значение"
}
emoji_in_template = "${名前} 🎉"
